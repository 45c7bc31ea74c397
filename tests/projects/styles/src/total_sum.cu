// *total += every element of x (the caller clears *total first).
#include <stark/stark.h>

#include <cstddef>
#include <cuda_runtime.h>

namespace styles {

// One atomic per element.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-3")
__global__ void total_sum_atomic(int n, const float* x, float* total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, x[i]);
}

// A grid-stride loop: a private sum per thread, one atomic per thread.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-3")
__global__ void total_sum_strided(const float* __restrict__ values, size_t count, float* __restrict__ result) {
  float mine = 0.0f;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
    mine += values[i];
  atomicAdd(result, mine);
}

// The square of each element, summed (a squared norm), the size in a struct.
struct Extent {
  long long size;
};

STARK_OPTIMIZE("rtol=1e-4", "atol=1e-3")
__global__ void total_sum_squares(Extent e, const float* data, float* acc) {
  long long k = threadIdx.x + (long long)blockIdx.x * blockDim.x;
  if (k < e.size) {
    float v = data[k];
    atomicAdd(&acc[0], v * v);
  }
}

void total_sum(int n, const float* x, float* total, cudaStream_t s) {
  total_sum_atomic<<<(n + 255) / 256, 256, 0, s>>>(n, x, total);
  total_sum_strided<<<512, 256, 0, s>>>(x, static_cast<size_t>(n), total);
  total_sum_squares<<<(n + 511) / 512, 512, 0, s>>>(Extent{n}, x, total);
}

}  // namespace styles
