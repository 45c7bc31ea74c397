// Declares x and y __restrict__, but one capture runs the kernel in place
// (x == y): the assumption is false for this program.
// expect: rejected restrict_assumption
// launch: grid=ceil_div(n, 256); block=256
__global__ void scale(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
