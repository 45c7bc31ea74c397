#include <stark/stark.h>

STARK_OPTIMIZE("budget=3") __global__ void still_found(int n, float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

void run(int n, float* x) { still_found<<<(n + 255) / 256, 256>>>(n, x); }
