// Transposed 2-D convolution, asymmetric input and kernel, padded (stride as
// given), no bias (KernelBench 78: stride 1, padding (1, 3)).
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather on a 3-D grid of 32 x 4 blocks: x and y over the output
// columns and rows, z over (image, output channel). Padding crops the full
// output: output (oy, ox) is full-output position (oy + ph, ox + pw).
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_2d_padded_kernel(int n, int cin, int cout, int h, int w, int kh, int kw, int sh,
                                                 int sw, int ph, int pw, const float* x, const float* wt, float* y) {
  const int oh = (h - 1) * sh - 2 * ph + kh, ow = (w - 1) * sw - 2 * pw + kw;
  const int ox = blockIdx.x * blockDim.x + threadIdx.x;
  const int oy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ox >= ow || oy >= oh) return;
  for (int z = blockIdx.z; z < n * cout; z += gridDim.z) {
    const int img = z / cout, co = z % cout;
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci)
      for (int i = 0; i < kh; ++i) {
        const int fy = oy + ph - i;
        if (fy < 0 || fy % sh != 0 || fy / sh >= h) continue;
        for (int j = 0; j < kw; ++j) {
          const int fx = ox + pw - j;
          if (fx < 0 || fx % sw != 0 || fx / sw >= w) continue;
          acc += x[((static_cast<size_t>(img) * cin + ci) * h + fy / sh) * w + fx / sw] *
                 wt[((static_cast<size_t>(ci) * cout + co) * kh + i) * kw + j];
        }
      }
    y[(static_cast<size_t>(z) * oh + oy) * ow + ox] = acc;
  }
}

void kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded(int n, int cin, int cout, int h, int w, int kh,
                                                                     int kw, int sh, int sw, int ph, int pw,
                                                                     const float* x, const float* wt, float* y,
                                                                     cudaStream_t s) {
  const int oh = (h - 1) * sh - 2 * ph + kh, ow = (w - 1) * sw - 2 * pw + kw;
  if (n <= 0 || cout <= 0 || h <= 0 || w <= 0 || sh <= 0 || sw <= 0 || oh <= 0 || ow <= 0) return;
  const dim3 block(32, 4);
  const dim3 grid((ow + 31) / 32, (oh + 3) / 4, std::min(n * cout, 65535));
  conv_transposed_2d_padded_kernel<<<grid, block, 0, s>>>(n, cin, cout, h, w, kh, kw, sh, sw, ph, pw, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded");
}

}  // namespace bench::kb
