// Transposed 3-D convolution, cubic kernel, padded, dilated, strided, no bias
// (KernelBench 77).
#include <stark/stark.h>

#include <cstdint>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather over the element type, one thread per output element with a
// 64-bit flat index; tap (a, b, c) of an output reads input
// (o + pad - tap * dil) / stride in each dimension when that is exact.
template <typename T>
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_3d_dilated_kernel(int n, int cin, int cout, int d, int h, int w, int k, int stride,
                                                  int pad, int dil, const T* __restrict__ x,
                                                  const T* __restrict__ wt, T* __restrict__ y) {
  const int64_t span = int64_t{dil} * (k - 1) + 1 - 2 * pad;
  const int64_t od = int64_t{d - 1} * stride + span, oh = int64_t{h - 1} * stride + span;
  const int64_t ow = int64_t{w - 1} * stride + span;
  const int64_t o = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (o >= int64_t{n} * cout * od * oh * ow) return;
  int64_t r = o;
  const int px = static_cast<int>(r % ow);
  r /= ow;
  const int py = static_cast<int>(r % oh);
  r /= oh;
  const int pz = static_cast<int>(r % od);
  r /= od;
  const int64_t co = r % cout, img = r / cout;
  T acc = T(0);
  for (int64_t ci = 0; ci < cin; ++ci) {
    for (int a = 0; a < k; ++a) {
      const int tz = pz + pad - a * dil;
      if (tz < 0 || tz % stride != 0 || tz / stride >= d) continue;
      for (int b = 0; b < k; ++b) {
        const int ty = py + pad - b * dil;
        if (ty < 0 || ty % stride != 0 || ty / stride >= h) continue;
        for (int c = 0; c < k; ++c) {
          const int tx = px + pad - c * dil;
          if (tx < 0 || tx % stride != 0 || tx / stride >= w) continue;
          acc += x[(((img * cin + ci) * d + tz / stride) * h + ty / stride) * w + tx / stride] *
                 wt[(((ci * cout + co) * k + a) * k + b) * k + c];
        }
      }
    }
  }
  y[o] = acc;
}

template __global__ void conv_transposed_3d_dilated_kernel<float>(int, int, int, int, int, int, int, int, int, int,
                                                                  const float* __restrict__,
                                                                  const float* __restrict__, float* __restrict__);

void kb_conv_transposed_3d_square_input_square_kernel_padded_dilated_strided(int n, int cin, int cout, int d, int h,
                                                                              int w, int k, int stride, int pad,
                                                                              int dil, const float* x,
                                                                              const float* wt, float* y,
                                                                              cudaStream_t s) {
  const int64_t span = int64_t{dil} * (k - 1) + 1 - 2 * pad;
  const int64_t od = int64_t{d - 1} * stride + span, oh = int64_t{h - 1} * stride + span;
  const int64_t ow = int64_t{w - 1} * stride + span;
  if (n <= 0 || cout <= 0 || d <= 0 || h <= 0 || w <= 0 || stride <= 0 || od <= 0 || oh <= 0 || ow <= 0) return;
  const int64_t outputs = int64_t{n} * cout * od * oh * ow;
  conv_transposed_3d_dilated_kernel<float><<<bench::detail::blocks_for(outputs), bench::detail::kBlock, 0, s>>>(
      n, cin, cout, d, h, w, k, stride, pad, dil, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_3d_square_input_square_kernel_padded_dilated_strided");
}

}  // namespace bench::kb
