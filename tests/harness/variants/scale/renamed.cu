// Attack: changes the signature (x loses const), which renames the kernel.
// expect: rejected signature
__global__ void scale(int n, float a, float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
