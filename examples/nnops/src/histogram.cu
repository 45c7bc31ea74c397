// Histogram of integer values.
#include "cuda_check.h"
#include "nnops/nnops.h"

namespace nnops {

// Naive: every thread increments a global bin with atomicAdd. With skewed
// data most threads hit the same few bins and their atomics serialize.
[[stark::optimize("budget=30", "seed=7")]] __global__ void histogram_kernel(int n, const int* values, int num_bins,
                                                                             unsigned int* bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = values[i];
  if (v >= 0 && v < num_bins) atomicAdd(&bins[v], 1u);
}

void histogram(int n, const int* values, int num_bins, unsigned int* bins, cudaStream_t s) {
  if (num_bins <= 0) return;
  NNOPS_CUDA_CHECK(cudaMemsetAsync(bins, 0, sizeof(unsigned int) * static_cast<size_t>(num_bins), s));
  if (n <= 0) return;
  void* args[] = {&n, &values, &num_bins, &bins};
  NNOPS_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(&histogram_kernel), dim3(detail::blocks_for(n)),
                                    dim3(detail::kBlock), args, 0, s));
}

}  // namespace nnops
