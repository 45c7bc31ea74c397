// KernelBench 95: cross-entropy loss, F.cross_entropy(predictions, targets).
#include <stark/stark.h>

#include <cstddef>
#include <cstdint>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per row, two passes over its logits (the maximum, then
// the sum of exponentials), the target's logit gathered, and the row's share
// of the mean added with one atomicAdd. Neighbouring threads read 16 KB
// apart.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-6")
__global__ void cross_entropy_kernel(const float* __restrict__ logits, const int64_t* __restrict__ targets,
                                     float* __restrict__ loss, int rows, int classes) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int64_t target = targets[r];
  if (target < 0 || target >= classes) return;
  const float* z = logits + static_cast<size_t>(r) * classes;
  float m = -INFINITY;
  for (int k = 0; k < classes; ++k) m = fmaxf(m, z[k]);
  float sum = 0.0f;
  for (int k = 0; k < classes; ++k) sum += expf(z[k] - m);
  atomicAdd(loss, (logf(sum) + m - z[target]) / static_cast<float>(rows));
}

void kb_cross_entropy_loss(int rows, int classes, const float* logits, const int64_t* targets, float* loss,
                           cudaStream_t s) {
  detail::check_launch("kb_cross_entropy_loss", cudaMemsetAsync(loss, 0, sizeof(float), s));
  if (rows <= 0 || classes <= 0) return;
  cross_entropy_kernel<<<detail::blocks_for(rows), detail::kBlock, 0, s>>>(logits, targets, loss, rows, classes);
  detail::check_launch("kb_cross_entropy_loss");
}

}  // namespace bench::kb
