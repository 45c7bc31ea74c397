// Attack: does the work in a child kernel launched from the device, outside
// the launch being timed. Needs relocatable device code, which candidates
// never get: it cannot even compile.
// expect: rejected compile
static __global__ void stark_child(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
__global__ void scale(int n, float a, const float* x, float* y) {
  if (blockIdx.x == 0 && threadIdx.x == 0) stark_child<<<(n + 255) / 256, 256>>>(n, a, x, y);
}
