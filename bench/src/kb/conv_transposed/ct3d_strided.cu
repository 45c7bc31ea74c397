// Transposed 3-D convolution, asymmetric input, cubic kernel, strided and
// padded, no bias (KernelBench 73, which runs with groups 1: see the header).
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather: x of the grid runs over one output plane (128 threads a
// block), y over (image, output channel, output depth). Each tap maps back
// to input position (o + pad - tap) / stride when that divides evenly.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_3d_strided_kernel(int n, int cin, int cout, int d, int h, int w, int k, int stride,
                                                  int pad, const float* x, const float* wt, float* y) {
  const int od = (d - 1) * stride - 2 * pad + k;
  const int oh = (h - 1) * stride - 2 * pad + k;
  const int ow = (w - 1) * stride - 2 * pad + k;
  const int pix = blockIdx.x * blockDim.x + threadIdx.x;
  if (pix >= oh * ow) return;
  const int oy = pix / ow, ox = pix % ow;
  for (int layer = blockIdx.y; layer < n * cout * od; layer += gridDim.y) {
    const int oz = layer % od, co = layer / od % cout, img = layer / od / cout;
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci)
      for (int a = 0; a < k; ++a) {
        const int tz = oz + pad - a;
        if (tz < 0 || tz % stride != 0 || tz / stride >= d) continue;
        for (int b = 0; b < k; ++b) {
          const int ty = oy + pad - b;
          if (ty < 0 || ty % stride != 0 || ty / stride >= h) continue;
          for (int c = 0; c < k; ++c) {
            const int tx = ox + pad - c;
            if (tx < 0 || tx % stride != 0 || tx / stride >= w) continue;
            acc += x[(((static_cast<size_t>(img) * cin + ci) * d + tz / stride) * h + ty / stride) * w + tx / stride] *
                   wt[(((static_cast<size_t>(ci) * cout + co) * k + a) * k + b) * k + c];
          }
        }
      }
    y[(static_cast<size_t>(layer) * oh + oy) * ow + ox] = acc;
  }
}

void kb_conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped(int n, int cin, int cout, int d,
                                                                                  int h, int w, int k, int stride,
                                                                                  int pad, const float* x,
                                                                                  const float* wt, float* y,
                                                                                  cudaStream_t s) {
  const int od = (d - 1) * stride - 2 * pad + k;
  const int oh = (h - 1) * stride - 2 * pad + k;
  const int ow = (w - 1) * stride - 2 * pad + k;
  if (n <= 0 || cout <= 0 || d <= 0 || h <= 0 || w <= 0 || stride <= 0 || od <= 0 || oh <= 0 || ow <= 0) return;
  const dim3 grid((oh * ow + 127) / 128, std::min(n * cout * od, 65535));
  conv_transposed_3d_strided_kernel<<<grid, 128, 0, s>>>(n, cin, cout, d, h, w, k, stride, pad, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped");
}

}  // namespace bench::kb
