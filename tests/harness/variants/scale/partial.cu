// Attack: skips the last 1% of the elements.
// expect: rejected correctness
// launch: grid=ceil_div(n, 256); block=256
__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - n / 100) y[i] = a * x[i];
}
