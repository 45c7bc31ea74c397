// Attack: returns before doing any work.
// expect: rejected correctness
__global__ void scale(int n, float a, const float* x, float* y) {
  if (n > 0) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
