// KernelBench 100: hinge loss, torch.mean(torch.clamp(1 - predictions * targets, min=0)),
// targets (one +-1 per column) broadcast along the rows.
#include <stark/stark.h>

#include <cstdint>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per column (its target read once) walks down the rows,
// so a warp reads 128 contiguous bytes of a row per step; one atomicAdd per
// column for its share of the mean.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-6")
__global__ void hinge_loss_kernel(int64_t rows, int64_t cols, const float* predictions, const float* targets,
                                  float* loss) {
  const int64_t col = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  const float t = targets[col];
  float sum = 0.0f;
  for (int64_t r = 0; r < rows; ++r) sum += fmaxf(0.0f, 1.0f - predictions[r * cols + col] * t);
  atomicAdd(loss, sum / (static_cast<float>(rows) * static_cast<float>(cols)));
}

void kb_hinge_loss(int64_t rows, int64_t cols, const float* predictions, const float* targets, float* loss,
                   cudaStream_t s) {
  detail::check_launch("kb_hinge_loss", cudaMemsetAsync(loss, 0, sizeof(float), s));
  if (rows <= 0 || cols <= 0) return;
  hinge_loss_kernel<<<detail::blocks_for(cols), detail::kBlock, 0, s>>>(rows, cols, predictions, targets, loss);
  detail::check_launch("kb_hinge_loss");
}

}  // namespace bench::kb
