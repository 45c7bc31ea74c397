// KernelBench 84: depthwise nn.Conv2d(cin, cout, k, stride, padding,
// groups=cin, bias=False) with a square kernel on a wide input (cout = cin in
// KernelBench; any multiple of cin works: output channel o reads input
// channel o / (cout / cin)).
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: blockIdx.x and threadIdx.x run over the positions of one output
// plane, blockIdx.y over the (batch, output channel) planes (a loop when
// there are more planes than gridDim.y); one output per thread, k x k taps
// from global memory.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void depthwise2d_wide_kernel(unsigned planes, int cin, int cout, int h, int w, int k, int stride, int pad,
                                        const float* x, const float* wt, float* y) {
  const int oh = (h + 2 * pad - k) / stride + 1, ow = (w + 2 * pad - k) / stride + 1;
  const unsigned pos = blockIdx.x * blockDim.x + threadIdx.x;
  if (pos >= static_cast<unsigned>(oh) * ow) return;
  const int oy = pos / ow, ox = pos % ow;
  const int mult = cout / cin;
  for (unsigned p = blockIdx.y; p < planes; p += gridDim.y) {
    const int co = p % cout;
    const size_t b = p / cout;
    const float* in = x + (b * cin + co / mult) * h * w;
    float acc = 0.0f;
    for (int ky = 0; ky < k; ++ky)
      for (int kx = 0; kx < k; ++kx) {
        const int iy = oy * stride - pad + ky, ix = ox * stride - pad + kx;
        if (iy >= 0 && iy < h && ix >= 0 && ix < w) acc += in[iy * w + ix] * wt[(co * k + ky) * k + kx];
      }
    y[static_cast<size_t>(p) * oh * ow + pos] = acc;
  }
}

void kb_conv_depthwise_2d_asymmetric_input_square_kernel(int n, int cin, int h, int w, int cout, int k, int stride,
                                                         int padding, const float* x, const float* wt, float* y,
                                                         cudaStream_t s) {
  if (stride < 1 || padding < 0 || k < 1 || cin <= 0 || cout % cin != 0)
    throw std::invalid_argument("depthwise2d_wide: bad stride, padding or k, or cout no multiple of cin");
  if (n <= 0 || cout <= 0 || h + 2 * padding < k || w + 2 * padding < k) return;
  const long long positions = static_cast<long long>((h + 2 * padding - k) / stride + 1) * ((w + 2 * padding - k) / stride + 1);
  const unsigned planes = static_cast<unsigned>(n) * cout;
  const dim3 grid(detail::blocks_for(positions), std::min(planes, 65535u));
  depthwise2d_wide_kernel<<<grid, detail::kBlock, 0, s>>>(planes, cin, cout, h, w, k, stride, padding, x, wt, y);
  detail::check_launch("kb_conv_depthwise_2d_asymmetric_input_square_kernel");
}

}  // namespace bench::kb
