// The original reads __constant__ data: the capture's module variable must be restored.
// expect: accepted
__global__ void add_bias(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + c_bias[i & 3];
}
