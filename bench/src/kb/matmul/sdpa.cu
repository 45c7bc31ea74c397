// Scaled dot-product attention (KernelBench 97,
// torch.nn.functional.scaled_dot_product_attention(Q, K, V)): no mask, no
// dropout, scale 1 / sqrt(dim). Q, K, V and the output are
// batch x heads x seq x dim; within each (batch, head),
// out[r] = softmax_j(Q[r] . K[j] * scale) @ V.
#include <stark/stark.h>

#include <cmath>
#include <cstddef>

#include "bench/kb/matmul.h"
#include "launch.h"

namespace bench::kb {

// The sizes, passed by value: heads_total = batch * heads.
struct AttentionDims {
  int heads_total, seq, dim;
};

// Naive: one thread per query row (batch * heads * seq threads). Pass 1
// computes every score Q[r] . K[j] to find the row maximum; pass 2 computes
// them again, adds exp(score - max) to the row's sum and accumulates
// exp(score - max) * V[j] into the output row in global memory; pass 3
// divides the row by the sum. No scratch buffer: the scores are recomputed.
// Every thread reads its own Q row and output row (dim floats apart from its
// neighbours'); all threads of a head read the same K and V rows.
// rtol/atol accept another order of the 1024-term dot products and 512-term
// sums, not TF32.
STARK_OPTIMIZE("rtol=2e-5", "atol=1e-6")
__global__ void sdpa_kernel(AttentionDims d, float scale, const float* __restrict__ q, const float* __restrict__ k,
                            const float* __restrict__ v, float* __restrict__ out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= d.heads_total * d.seq) return;
  const size_t head = static_cast<size_t>(r / d.seq);
  const size_t dim = static_cast<size_t>(d.dim);
  const float* q_row = q + static_cast<size_t>(r) * dim;
  const float* k_head = k + head * d.seq * dim;
  const float* v_head = v + head * d.seq * dim;
  float* o_row = out + static_cast<size_t>(r) * dim;

  float row_max = -INFINITY;
  for (int j = 0; j < d.seq; ++j) {
    const float* k_row = k_head + j * dim;
    float dot = 0.0f;
    for (size_t e = 0; e < dim; ++e) dot += q_row[e] * k_row[e];
    row_max = fmaxf(row_max, dot * scale);
  }

  for (size_t e = 0; e < dim; ++e) o_row[e] = 0.0f;
  float sum = 0.0f;
  for (int j = 0; j < d.seq; ++j) {
    const float* k_row = k_head + j * dim;
    const float* v_row = v_head + j * dim;
    float dot = 0.0f;
    for (size_t e = 0; e < dim; ++e) dot += q_row[e] * k_row[e];
    const float p = expf(dot * scale - row_max);
    sum += p;
    for (size_t e = 0; e < dim; ++e) o_row[e] += p * v_row[e];
  }

  for (size_t e = 0; e < dim; ++e) o_row[e] /= sum;
}

void kb_scaled_dot_product_attention(int batch, int heads, int seq, int dim, const float* q, const float* k,
                                     const float* v, float* out, cudaStream_t s) {
  if (batch <= 0 || heads <= 0 || seq <= 0 || dim <= 0) return;
  const AttentionDims d{batch * heads, seq, dim};
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dim)));
  // Few rows (4096 at the benchmark's shape): one warp per block spreads them
  // over every multiprocessor.
  const int rows = batch * heads * seq;
  sdpa_kernel<<<(rows + 31) / 32, 32, 0, s>>>(d, scale, q, k, v, out);
  detail::check_launch("kb_scaled_dot_product_attention");
}

}  // namespace bench::kb
