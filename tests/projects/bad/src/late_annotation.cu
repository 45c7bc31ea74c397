#include <stark/stark.h>

__global__ void marked_too_late(int n, float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0.0f;
}

STARK_OPTIMIZE("budget=2") __global__ void marked_too_late(int n, float* x);

__global__ void raw_too_late(int n, float* x) {}
[[stark::optimize]] __global__ void raw_too_late(int n, float* x);

__global__ void other_attribute_late(int n, float* x) {}
[[gnu::cold]] __global__ void other_attribute_late(int n, float* x);
