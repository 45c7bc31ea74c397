// Transposed 2-D convolution, asymmetric input and kernel, strided, grouped,
// padded, dilated, no bias (KernelBench 75).
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather: x of the grid covers the output plane, y the (image, output
// channel) pairs. An output sums over the cin / groups input channels of its
// group and the taps whose (o + pad - tap * dil) divides by the stride.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_2d_grouped_kernel(int n, int cin, int cout, int h, int w, int kh, int kw, int sh,
                                                  int sw, int ph, int pw, int dh, int dw, int groups, const float* x,
                                                  const float* wt, float* y) {
  const int oh = (h - 1) * sh - 2 * ph + dh * (kh - 1) + 1;
  const int ow = (w - 1) * sw - 2 * pw + dw * (kw - 1) + 1;
  const long long pix = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (pix >= static_cast<long long>(oh) * ow) return;
  const int oy = static_cast<int>(pix / ow), ox = static_cast<int>(pix % ow);
  const int cin_g = cin / groups, cout_g = cout / groups;
  for (int nc = blockIdx.y; nc < n * cout; nc += gridDim.y) {
    const int img = nc / cout, co = nc % cout;
    const int group = co / cout_g, j = co % cout_g;
    float acc = 0.0f;
    for (int c = 0; c < cin_g; ++c) {
      const int ci = group * cin_g + c;
      for (int a = 0; a < kh; ++a) {
        const int ty = oy + ph - a * dh;
        if (ty < 0 || ty % sh != 0) continue;
        const int iy = ty / sh;
        if (iy >= h) continue;
        for (int b = 0; b < kw; ++b) {
          const int tx = ox + pw - b * dw;
          if (tx < 0 || tx % sw != 0) continue;
          const int ix = tx / sw;
          if (ix >= w) continue;
          acc += x[((static_cast<size_t>(img) * cin + ci) * h + iy) * w + ix] *
                 wt[((static_cast<size_t>(ci) * cout_g + j) * kh + a) * kw + b];
        }
      }
    }
    y[static_cast<size_t>(nc) * oh * ow + pix] = acc;
  }
}

void kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated(
    int n, int cin, int cout, int h, int w, int kh, int kw, int sh, int sw, int ph, int pw, int dh, int dw,
    int groups, const float* x, const float* wt, float* y, cudaStream_t s) {
  if (groups <= 0 || cin % groups != 0 || cout % groups != 0)
    throw std::invalid_argument("kb_conv_transposed_2d_..._dilated: groups must divide cin and cout");
  const int oh = (h - 1) * sh - 2 * ph + dh * (kh - 1) + 1;
  const int ow = (w - 1) * sw - 2 * pw + dw * (kw - 1) + 1;
  if (n <= 0 || cout <= 0 || h <= 0 || w <= 0 || sh <= 0 || sw <= 0 || oh <= 0 || ow <= 0) return;
  const dim3 grid(bench::detail::blocks_for(static_cast<long long>(oh) * ow), std::min(n * cout, 65535));
  conv_transposed_2d_grouped_kernel<<<grid, bench::detail::kBlock, 0, s>>>(n, cin, cout, h, w, kh, kw, sh, sw, ph, pw,
                                                                            dh, dw, groups, x, wt, y);
  bench::detail::check_launch(
      "kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel_strided_grouped_padded_dilated");
}

}  // namespace bench::kb
