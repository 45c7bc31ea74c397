#include <stark/stark.h>

#include "inc/common.cuh"

__constant__ float kGain = 3.0f;

__device__ float square_chain(float x) { return square(x); }

STARK_OPTIMIZE("budget=4") __global__ void k_twice(int n, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = twice(y[i]);
}

STARK_OPTIMIZE("budget=4") __global__ void k_square(int n, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = square_chain(y[i]);
}

STARK_OPTIMIZE("budget=4") __global__ void k_pair(int n, const Pair* p, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = p[i].a * p[i].b;
}

STARK_OPTIMIZE("budget=4") __global__ void k_tile(int n, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * TILE;
}

template <typename T>
STARK_OPTIMIZE("budget=4") __global__ void k_scaled(int n, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = scaled<T>(y[i], static_cast<T>(kGain));
}

void run(int n, float* y, const Pair* p) {
  k_twice<<<(n + 255) / 256, 256>>>(n, y);
  k_square<<<(n + 255) / 256, 256>>>(n, y);
  k_pair<<<(n + 255) / 256, 256>>>(n, p, y);
  k_tile<<<(n + 255) / 256, 256>>>(n, y);
  k_scaled<float><<<(n + 255) / 256, 256>>>(n, y);
}
