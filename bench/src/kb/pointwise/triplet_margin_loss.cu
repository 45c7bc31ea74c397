// KernelBench 99: triplet margin loss, nn.TripletMarginLoss(margin=1.0)
// (p = 2, eps = 1e-6, no swap, mean over the batch).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per row accumulates both squared distances (eps added to
// each difference, as torch.pairwise_distance does) over its three rows,
// then adds its hinge's share of the mean with one atomicAdd.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-6")
__global__ void triplet_margin_kernel(int rows, int dim, const float* anchor, const float* positive,
                                      const float* negative, float margin, float eps, float* loss) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const size_t base = static_cast<size_t>(r) * dim;
  float ap = 0.0f, an = 0.0f;
  for (int k = 0; k < dim; ++k) {
    const float dp = anchor[base + k] - positive[base + k] + eps;
    const float dn = anchor[base + k] - negative[base + k] + eps;
    ap += dp * dp;
    an += dn * dn;
  }
  const float hinge = sqrtf(ap) - sqrtf(an) + margin;
  if (hinge > 0.0f) atomicAdd(loss, hinge / static_cast<float>(rows));
}

void kb_triplet_margin_loss(int rows, int dim, const float* anchor, const float* positive, const float* negative,
                            float margin, float eps, float* loss, cudaStream_t s) {
  detail::check_launch("kb_triplet_margin_loss", cudaMemsetAsync(loss, 0, sizeof(float), s));
  if (rows <= 0 || dim <= 0) return;
  triplet_margin_kernel<<<(rows + 127) / 128, 128, 0, s>>>(rows, dim, anchor, positive, negative, margin, eps,
                                                            loss);
  detail::check_launch("kb_triplet_margin_loss");
}

}  // namespace bench::kb
