// 2-D average pooling (KernelBench 45: nn.AvgPool2d(11): stride 11, padding
// 0, count_include_pad=True, ceil_mode=False).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per output of a flat 1-D launch (index decomposed into
// plane, row, column) sums its kernel x kernel window load by load; with
// stride 11 the window rows of neighbouring threads are 44 bytes apart, so
// each warp load touches many lines. Every window divides by kernel^2
// (count_include_pad, no ceil_mode).
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void avg_pool2d_kernel(size_t planes, int in_h, int in_w, int out_h, int out_w, int kernel, int stride,
                                  int pad, const float* x, float* y) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= planes * out_h * out_w) return;
  const int ox = static_cast<int>(i % out_w);
  const int oy = static_cast<int>(i / out_w % out_h);
  const size_t plane = i / (static_cast<size_t>(out_w) * out_h);
  const float* in = x + plane * in_h * in_w;
  const int y0 = oy * stride - pad, x0 = ox * stride - pad;
  float sum = 0.0f;
  for (int ky = 0; ky < kernel; ++ky) {
    const int iy = y0 + ky;
    if (iy < 0 || iy >= in_h) continue;
    for (int kx = 0; kx < kernel; ++kx) {
      const int ix = x0 + kx;
      if (ix >= 0 && ix < in_w) sum += in[static_cast<size_t>(iy) * in_w + ix];
    }
  }
  y[i] = sum / static_cast<float>(kernel * kernel);
}

void kb_average_pooling_2d(int n, int c, int h, int w, int kernel, int stride, int padding, const float* x, float* y,
                           cudaStream_t s) {
  const int out_h = pool_out(h, kernel, stride, padding), out_w = pool_out(w, kernel, stride, padding);
  if (n <= 0 || c <= 0 || out_h <= 0 || out_w <= 0) return;
  const size_t planes = static_cast<size_t>(n) * c;
  avg_pool2d_kernel<<<detail::blocks_for(static_cast<long long>(planes) * out_h * out_w), detail::kBlock, 0, s>>>(
      planes, h, w, out_h, out_w, kernel, stride, padding, x, y);
  detail::check_launch("kb::kb_average_pooling_2d");
}

}  // namespace bench::kb
