// KernelBench 86: depthwise-separable convolution, a depthwise
// nn.Conv2d(cin, cin, k, stride, padding, dilation, groups=cin, bias=False)
// followed by a pointwise nn.Conv2d(cin, cout, 1, bias=False).
#include <stark/stark.h>

#include <cstdint>
#include <stdexcept>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive and fused into one kernel: one thread per final output element
// (batch, cout, y, x); for every input channel it recomputes that channel's
// depthwise value at (y, x) from global memory and adds it times the
// pointwise weight. The depthwise result is never stored, so each one is
// computed again for every output channel (cout times the depthwise work of
// the two-layer module).
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void separable2d_kernel(int n, int cin, int h, int w, int cout, int k, int stride, int pad, int dilation,
                                   const float* __restrict__ x, const float* __restrict__ dw,
                                   const float* __restrict__ pw, float* __restrict__ y) {
  const int oh = (h + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  const int ow = (w + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  const int64_t o = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= int64_t(n) * cout * oh * ow) return;
  const int ox = int(o % ow), oy = int(o / ow % oh);
  const int co = int(o / (int64_t(oh) * ow) % cout);
  const int64_t b = o / (int64_t(oh) * ow * cout);
  float out = 0.0f;
  for (int ci = 0; ci < cin; ++ci) {
    const float* plane = x + (b * cin + ci) * int64_t(h) * w;
    float depth = 0.0f;
    for (int ky = 0; ky < k; ++ky) {
      const int iy = oy * stride - pad + ky * dilation;
      if (iy < 0 || iy >= h) continue;
      for (int kx = 0; kx < k; ++kx) {
        const int ix = ox * stride - pad + kx * dilation;
        if (ix >= 0 && ix < w) depth += plane[int64_t(iy) * w + ix] * dw[(ci * k + ky) * k + kx];
      }
    }
    out += pw[int64_t(co) * cin + ci] * depth;
  }
  y[o] = out;
}

void kb_conv_depthwise_separable_2d(int n, int cin, int h, int w, int cout, int k, int stride, int padding,
                                    int dilation, const float* x, const float* dw, const float* pw, float* y,
                                    cudaStream_t s) {
  if (stride < 1 || padding < 0 || dilation < 1 || k < 1)
    throw std::invalid_argument("separable2d: bad stride, padding, dilation or k");
  const int span = dilation * (k - 1) + 1;
  if (n <= 0 || cout <= 0 || h + 2 * padding < span || w + 2 * padding < span) return;
  const int64_t total =
      int64_t(n) * cout * ((h + 2 * padding - span) / stride + 1) * ((w + 2 * padding - span) / stride + 1);
  separable2d_kernel<<<detail::blocks_for(total), detail::kBlock, 0, s>>>(n, cin, h, w, cout, k, stride, padding,
                                                                          dilation, x, dw, pw, y);
  detail::check_launch("kb_conv_depthwise_separable_2d");
}

}  // namespace bench::kb
