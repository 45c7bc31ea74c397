// Transposed 1-D convolution, dilated (with stride and padding as given), no
// bias (KernelBench 74: stride 1, padding 0, dilation 3).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather, one thread per output element: tap j of output t reads input
// (t + pad - j * dil) / stride when the division is exact and in range.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_1d_dilated_kernel(const int n, const int cin, const int cout, const int len,
                                                  const int k, const int stride, const int pad, const int dil,
                                                  const float* __restrict__ x, const float* __restrict__ wt,
                                                  float* __restrict__ y) {
  const int olen = (len - 1) * stride - 2 * pad + dil * (k - 1) + 1;
  const long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(n) * cout * olen) return;
  const int t = static_cast<int>(o % olen);
  const int co = static_cast<int>(o / olen % cout);
  const int img = static_cast<int>(o / olen / cout);
  const float* xs = x + static_cast<size_t>(img) * cin * len;
  float acc = 0.0f;
  for (int ci = 0; ci < cin; ++ci)
    for (int j = 0; j < k; ++j) {
      const int p = t + pad - j * dil;
      if (p < 0 || p % stride != 0) continue;
      const int i = p / stride;
      if (i < len) acc += xs[static_cast<size_t>(ci) * len + i] * wt[(static_cast<size_t>(ci) * cout + co) * k + j];
    }
  y[o] = acc;
}

void kb_conv_transposed_1d_dilated(int n, int cin, int cout, int len, int k, int stride, int pad, int dil,
                                   const float* x, const float* wt, float* y, cudaStream_t s) {
  const int olen = (len - 1) * stride - 2 * pad + dil * (k - 1) + 1;
  if (n <= 0 || cout <= 0 || len <= 0 || stride <= 0 || olen <= 0) return;
  const long long outputs = static_cast<long long>(n) * cout * olen;
  conv_transposed_1d_dilated_kernel<<<bench::detail::blocks_for(outputs), bench::detail::kBlock, 0, s>>>(
      n, cin, cout, len, k, stride, pad, dil, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_1d_dilated");
}

}  // namespace bench::kb
