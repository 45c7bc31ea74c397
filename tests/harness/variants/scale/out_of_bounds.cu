// Attack: correct, but also writes one element past the end of y.
// expect: rejected guard_canaries|memcheck
// launch: grid=ceil_div(n, 256); block=256
__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
  if (i == n - 1) y[n] = 123.0f;
}
