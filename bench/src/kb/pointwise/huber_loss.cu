// KernelBench 96: Huber loss, F.smooth_l1_loss(predictions, targets) (beta 1).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Elements each thread sums before its one atomicAdd.
constexpr size_t kHuberChunk = 1024;

// Naive: the flattened tensors cut into chunks of kHuberChunk consecutive
// elements, a thread per chunk (neighbouring threads read 4 KB apart), a
// branch per element, one atomicAdd per chunk for its share of the mean.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-7")
__global__ void smooth_l1_kernel(size_t n, const float* predictions, const float* targets, float beta, float* loss) {
  const size_t begin = (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * kHuberChunk;
  if (begin >= n) return;
  const size_t end = begin + kHuberChunk < n ? begin + kHuberChunk : n;
  float sum = 0.0f;
  for (size_t i = begin; i < end; ++i) {
    const float d = fabsf(predictions[i] - targets[i]);
    sum += d < beta ? 0.5f * d * d / beta : d - 0.5f * beta;
  }
  atomicAdd(loss, sum / static_cast<float>(n));
}

void kb_huber_loss(size_t n, const float* predictions, const float* targets, float beta, float* loss,
                   cudaStream_t s) {
  detail::check_launch("kb_huber_loss", cudaMemsetAsync(loss, 0, sizeof(float), s));
  if (n == 0) return;
  const size_t threads = (n + kHuberChunk - 1) / kHuberChunk;
  smooth_l1_kernel<<<static_cast<unsigned>((threads + 255) / 256), 256, 0, s>>>(n, predictions, targets, beta, loss);
  detail::check_launch("kb_huber_loss");
}

}  // namespace bench::kb
