// Maximum over the middle dimension of a 3-D tensor (KernelBench 49: torch.max(x, dim=1)[0]).
#include <stark/stark.h>

#include <cmath>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// A reduction over the middle of three dimensions: outer x reduce x inner.
struct ReduceDims {
  int outer;
  int reduce;
  int inner;
};

// Naive: one output per iteration of a grid-stride loop over the flat output
// index, decomposed into (batch, column); the column's `reduce` values are
// walked one after another. Coalesced across a warp, but each thread runs a
// 4096-step dependent loop and only outer * inner threads exist. NaN wins,
// as in torch.
STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void max_dim_kernel(ReduceDims dims, const float* x, float* out) {
  const long long total = static_cast<long long>(dims.outer) * dims.inner;
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; o < total; o += step) {
    const long long batch = o / dims.inner, j = o % dims.inner;
    const float* column = x + batch * dims.reduce * dims.inner + j;
    float best = column[0];
    for (int i = 1; i < dims.reduce; ++i) {
      const float v = column[static_cast<long long>(i) * dims.inner];
      if (v > best || isnan(v)) best = v;
    }
    out[o] = best;
  }
}

void kb_max_reduction_over_a_dimension(int b, int d1, int d2, const float* x, float* out, cudaStream_t s) {
  if (b <= 0 || d1 <= 0 || d2 <= 0) return;
  const ReduceDims dims{b, d1, d2};
  const long long blocks = (static_cast<long long>(b) * d2 + 255) / 256;
  max_dim_kernel<<<static_cast<unsigned>(blocks < 1024 ? blocks : 1024), 256, 0, s>>>(dims, x, out);
  detail::check_launch("kb::kb_max_reduction_over_a_dimension");
}

}  // namespace bench::kb
