#include <stark/stark.h>

#include "inc/arch.cuh"

// The device-side branch is skipped by a host-side parse: the fingerprint
// cannot see DEVICE_GAIN expanded there, so it hashes this unit's files.
STARK_OPTIMIZE("budget=4") __global__ void k_arch(int n, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
  if (i < n) y[i] = y[i] * DEVICE_GAIN;
#endif
}

void run_arch(int n, float* y) { k_arch<<<(n + 255) / 256, 256>>>(n, y); }
