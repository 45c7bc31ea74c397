// Host code as nvcc accepts it and clang's CUDA headers do not: min and max
// on floats and ints, umin and llmax, called from host functions (nvcc
// declares them __host__ __device__, clang __device__ only).
#include <stark/stark.h>

STARK_OPTIMIZE()
__global__ void clamp_kernel(float* x, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = min(max(x[i], lo), hi);
}

static float clamp_host(float v, float lo, float hi) { return min(max(v, lo), hi); }

static int blocks_for(int n, int block) {
  unsigned int wanted = umin(static_cast<unsigned int>((n + block - 1) / block), 65535u);
  return static_cast<int>(llmax(1ll, static_cast<long long>(max(1, min(static_cast<int>(wanted), 65535)))));
}

void clamp(float* x, float lo, float hi, int n) {
  float checked_lo = clamp_host(lo, -1e30f, hi);
  clamp_kernel<<<blocks_for(n, 256), 256>>>(x, checked_lo, hi, n);
}
