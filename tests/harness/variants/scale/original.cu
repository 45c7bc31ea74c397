// The original kernel replayed against itself: must be accepted (speedup ~1).
// expect: accepted
__global__ void scale(int n, float a, const float* x, float* y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 8; ++k) {
    int i = t * 8 + k;
    if (i < n) y[i] = a * x[i];
  }
}
