// Sum reduction.
#include "cuda_check.h"
#include "nnops/nnops.h"

namespace nnops {

// Naive: every thread adds its element to one global accumulator, so all n
// atomics serialize on a single address. The float sum's rounding depends on
// the (unordered) atomic order, hence the loose rtol.
[[stark::optimize("rtol=1e-3", "atol=1e-2")]] __global__ void reduce_sum_kernel(int n, const float* x,
                                                                                 float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, x[i]);
}

void reduce_sum(int n, const float* x, float* out, cudaStream_t s) {
  fill(1, 0.0f, out, s);
  if (n <= 0) return;
  void* args[] = {&n, &x, &out};
  NNOPS_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(&reduce_sum_kernel), dim3(detail::blocks_for(n)),
                                    dim3(detail::kBlock), args, 0, s));
}

}  // namespace nnops
