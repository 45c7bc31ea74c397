// Histogram of float values in [0, 1) over equal-width bins (torch.histc).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kernels.h"
#include "launch.h"

namespace bench {

// Naive: every value increments its global bin with atomicAdd; on skewed
// data most threads hit the same few bins and their atomics serialise.
STARK_OPTIMIZE() __global__ void histogram_kernel(int n, const float* values, int num_bins, unsigned int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = values[i];
  int b = static_cast<int>(v * num_bins);
  if (v >= 0.0f && b < num_bins) atomicAdd(&bins[b], 1u);
}

void histogram(int n, const float* values, int num_bins, unsigned int* bins, cudaStream_t s) {
  if (num_bins <= 0) return;
  detail::check_launch("histogram", cudaMemsetAsync(bins, 0, sizeof(unsigned int) * static_cast<size_t>(num_bins), s));
  if (n <= 0) return;
  histogram_kernel<<<detail::blocks_for(n), detail::kBlock, 0, s>>>(n, values, num_bins, bins);
  detail::check_launch("histogram");
}

}  // namespace bench
