// 256-bin byte histogram with global atomics.
#include <stark/stark.h>

STARK_OPTIMIZE("budget=6")
__global__ void histogram(int n, const unsigned char* data, unsigned int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i]], 1u);
}

void histogram256(int n, const unsigned char* data, unsigned int* bins) {
  histogram<<<(n + 255) / 256, 256>>>(n, data, bins);
}
