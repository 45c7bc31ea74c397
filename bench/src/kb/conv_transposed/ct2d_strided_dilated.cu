// Transposed 2-D convolution, asymmetric input, square kernel, dilated,
// padded, strided, no bias (KernelBench 81).
#include <stark/stark.h>

#include <algorithm>
#include <cstdint>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive scatter on a 3-D grid: x and y of the grid cover the input pixels, z
// the (image, input channel) planes. Each input pixel adds x * w into every
// output channel at (i * stride - pad + tap * dil) with an atomicAdd (y
// cleared by the launcher).
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_2d_scatter_kernel(int n, int cin, int cout, int h, int w, int k, int stride, int pad,
                                                  int dil, const float* x, const float* wt, float* y) {
  const int oh = (h - 1) * stride - 2 * pad + dil * (k - 1) + 1;
  const int ow = (w - 1) * stride - 2 * pad + dil * (k - 1) + 1;
  const int ix = blockIdx.x * blockDim.x + threadIdx.x;
  const int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix >= w || iy >= h) return;
  for (int z = blockIdx.z; z < n * cin; z += gridDim.z) {
    const int img = z / cin, ci = z % cin;
    const float v = x[(int64_t{z} * h + iy) * w + ix];
    for (int co = 0; co < cout; ++co) {
      float* plane = y + (int64_t{img} * cout + co) * oh * ow;
      const float* taps = wt + (int64_t{ci} * cout + co) * k * k;
      for (int a = 0; a < k; ++a) {
        const int oy = iy * stride - pad + a * dil;
        if (oy < 0 || oy >= oh) continue;
        for (int b = 0; b < k; ++b) {
          const int ox = ix * stride - pad + b * dil;
          if (ox >= 0 && ox < ow) atomicAdd(plane + int64_t{oy} * ow + ox, v * taps[a * k + b]);
        }
      }
    }
  }
}

void kb_conv_transposed_2d_asymmetric_input_square_kernel_dilated_padded_strided(int n, int cin, int cout, int h,
                                                                                  int w, int k, int stride, int pad,
                                                                                  int dil, const float* x,
                                                                                  const float* wt, float* y,
                                                                                  cudaStream_t s) {
  const int oh = (h - 1) * stride - 2 * pad + dil * (k - 1) + 1;
  const int ow = (w - 1) * stride - 2 * pad + dil * (k - 1) + 1;
  if (n <= 0 || cout <= 0 || oh <= 0 || ow <= 0) return;
  bench::detail::check_launch("kb_conv_transposed_2d_..._strided (clear)",
                              cudaMemsetAsync(y, 0, sizeof(float) * n * cout * oh * ow, s));
  if (cin <= 0 || h <= 0 || w <= 0) return;
  const dim3 block(32, 8);
  const dim3 grid((w + 31) / 32, (h + 7) / 8, std::min(n * cin, 65535));
  conv_transposed_2d_scatter_kernel<<<grid, block, 0, s>>>(n, cin, cout, h, w, k, stride, pad, dil, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_2d_asymmetric_input_square_kernel_dilated_padded_strided");
}

}  // namespace bench::kb
