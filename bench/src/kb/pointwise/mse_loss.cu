// KernelBench 94: MSE loss, torch.mean((predictions - targets) ** 2).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per row sums its row's squared differences (neighbouring
// threads read a whole row apart, and only `rows` threads run), then adds
// its share of the mean to the scalar with one atomicAdd. Row partials keep
// the float sum accurate (an atomic per element would stall the accumulator
// once it is 2^24 times larger than a term).
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-7")
__global__ void mse_loss_kernel(int rows, int cols, const float* predictions, const float* targets, float* loss) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* p = predictions + static_cast<size_t>(row) * cols;
  const float* t = targets + static_cast<size_t>(row) * cols;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) {
    const float d = p[c] - t[c];
    sum += d * d;
  }
  atomicAdd(loss, sum / (static_cast<float>(rows) * static_cast<float>(cols)));
}

void kb_mse_loss(int rows, int cols, const float* predictions, const float* targets, float* loss, cudaStream_t s) {
  detail::check_launch("kb_mse_loss", cudaMemsetAsync(loss, 0, sizeof(float), s));
  if (rows <= 0 || cols <= 0) return;
  mse_loss_kernel<<<(rows + 127) / 128, 128, 0, s>>>(rows, cols, predictions, targets, loss);
  detail::check_launch("kb_mse_loss");
}

}  // namespace bench::kb
