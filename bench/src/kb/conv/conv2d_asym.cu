// KernelBench 56: nn.Conv2d(cin, cout, (kh, kw), bias=False), asymmetric
// input and kernel, valid, stride 1.
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: a grid-stride loop over the flat output index, peeled into
// (x, y, channel, batch) by repeated division; each output sums its
// cin x kh x kw window straight from global memory.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv2d_asym_kernel(int n, int cin, int h, int w, int cout, int kh, int kw,
                                   const float* __restrict__ x, const float* __restrict__ wt, float* __restrict__ y) {
  const int oh = h - kh + 1, ow = w - kw + 1;
  const size_t total = static_cast<size_t>(n) * cout * oh * ow;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    size_t rest = i;
    const int ox = static_cast<int>(rest % ow);
    rest /= ow;
    const int oy = static_cast<int>(rest % oh);
    rest /= oh;
    const int co = static_cast<int>(rest % cout);
    const size_t b = rest / cout;
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci)
      for (int ky = 0; ky < kh; ++ky)
        for (int kx = 0; kx < kw; ++kx)
          acc += x[((b * cin + ci) * h + oy + ky) * w + ox + kx] *
                 wt[((static_cast<size_t>(co) * cin + ci) * kh + ky) * kw + kx];
    y[i] = acc;
  }
}

void kb_conv_standard_2d_asymmetric_input_asymmetric_kernel(int n, int cin, int h, int w, int cout, int kh, int kw,
                                                            const float* x, const float* wt, float* y,
                                                            cudaStream_t s) {
  if (n <= 0 || cout <= 0 || h < kh || w < kw) return;
  const long long total = static_cast<long long>(n) * cout * (h - kh + 1) * (w - kw + 1);
  // A fixed grid of 2048 blocks (enough to fill the GPU); threads loop over the rest.
  const unsigned blocks = std::min(detail::blocks_for(total), 2048u);
  conv2d_asym_kernel<<<blocks, detail::kBlock, 0, s>>>(n, cin, h, w, cout, kh, kw, x, wt, y);
  detail::check_launch("kb_conv_standard_2d_asymmetric_input_asymmetric_kernel");
}

}  // namespace bench::kb
