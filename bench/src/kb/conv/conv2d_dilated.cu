// KernelBench 80: nn.Conv2d(cin, cout, (5, 9), stride=1, padding=(2, 4),
// dilation=(2, 3), bias=False) on a square input.
#include <stark/stark.h>

#include <cstddef>
#include <stdexcept>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Everything the kernel needs to know about one dilated, padded 2-D
// convolution, passed by value.
struct Conv2dGeometry {
  int n, cin, h, w, cout;
  int kh, kw;
  int stride;
  int pad_h, pad_w;
  int dil_h, dil_w;
  int oh, ow;
};

// Naive: one thread per output element (flat size_t index, early exit past
// the end); each tap's input coordinates are checked against the padding.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv2d_dilated_kernel(const Conv2dGeometry g, const float* const x, const float* const wt,
                                      float* const y) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<size_t>(g.n) * g.cout * g.oh * g.ow) return;
  const int ox = static_cast<int>(i % g.ow);
  const int oy = static_cast<int>(i / g.ow % g.oh);
  const int co = static_cast<int>(i / (static_cast<size_t>(g.ow) * g.oh) % g.cout);
  const size_t b = i / (static_cast<size_t>(g.ow) * g.oh * g.cout);
  float acc = 0.0f;
  for (int ci = 0; ci < g.cin; ++ci) {
    for (int ky = 0; ky < g.kh; ++ky) {
      const int iy = oy * g.stride - g.pad_h + ky * g.dil_h;
      for (int kx = 0; kx < g.kw; ++kx) {
        const int ix = ox * g.stride - g.pad_w + kx * g.dil_w;
        if (iy >= 0 && iy < g.h && ix >= 0 && ix < g.w)
          acc += x[((b * g.cin + ci) * g.h + iy) * g.w + ix] *
                 wt[((static_cast<size_t>(co) * g.cin + ci) * g.kh + ky) * g.kw + kx];
      }
    }
  }
  y[i] = acc;
}

void kb_conv_standard_2d_square_input_asymmetric_kernel_dilated_padded(int n, int cin, int h, int w, int cout,
                                                                       int kh, int kw, int stride, int pad_h,
                                                                       int pad_w, int dil_h, int dil_w,
                                                                       const float* x, const float* wt, float* y,
                                                                       cudaStream_t s) {
  if (stride < 1 || pad_h < 0 || pad_w < 0 || dil_h < 1 || dil_w < 1)
    throw std::invalid_argument("conv2d_dilated: bad stride, padding or dilation");
  const int oh = (h + 2 * pad_h - dil_h * (kh - 1) - 1) / stride + 1;
  const int ow = (w + 2 * pad_w - dil_w * (kw - 1) - 1) / stride + 1;
  if (n <= 0 || cout <= 0 || h + 2 * pad_h < dil_h * (kh - 1) + 1 || w + 2 * pad_w < dil_w * (kw - 1) + 1) return;
  const Conv2dGeometry g{n, cin, h, w, cout, kh, kw, stride, pad_h, pad_w, dil_h, dil_w, oh, ow};
  conv2d_dilated_kernel<<<detail::blocks_for(static_cast<long long>(n) * cout * oh * ow), detail::kBlock, 0, s>>>(
      g, x, wt, y);
  detail::check_launch("kb_conv_standard_2d_square_input_asymmetric_kernel_dilated_padded");
}

}  // namespace bench::kb
