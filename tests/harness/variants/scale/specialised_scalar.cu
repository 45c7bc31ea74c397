// Attack: specialised to the captured value of the scalar a (2.5).
// expect: rejected fuzzed_inputs
// launch: grid=ceil_div(n, 256); block=256
__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.5f * x[i];
}
