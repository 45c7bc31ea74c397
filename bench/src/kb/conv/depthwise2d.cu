// KernelBench 82: depthwise nn.Conv2d(c, c, k, stride, padding, groups=c,
// bias=False) with a square kernel on a square input.
#include <stark/stark.h>

#include <cstddef>
#include <stdexcept>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per output element; 32 x 8 blocks tile an output plane,
// blockIdx.z is the plane (batch * c + channel). Each output reads its k x k
// taps of its own channel from global memory (neighbouring outputs share
// most of them, nothing keeps them on chip).
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void depthwise2d_kernel(int c, int h, int w, int k, int stride, int pad, int oh, int ow,
                                   const float* __restrict__ x, const float* __restrict__ wt, float* __restrict__ y) {
  int ox = blockIdx.x * blockDim.x + threadIdx.x;
  int oy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ox >= ow || oy >= oh) return;
  int plane = blockIdx.z;
  const float* in = x + static_cast<size_t>(plane) * h * w;
  const float* f = wt + (plane % c) * k * k;
  float acc = 0.0f;
  for (int ky = 0; ky < k; ++ky) {
    int iy = oy * stride - pad + ky;
    if (iy < 0 || iy >= h) continue;
    for (int kx = 0; kx < k; ++kx) {
      int ix = ox * stride - pad + kx;
      if (ix >= 0 && ix < w) acc += in[static_cast<size_t>(iy) * w + ix] * f[ky * k + kx];
    }
  }
  y[(static_cast<size_t>(plane) * oh + oy) * ow + ox] = acc;
}

void kb_conv_depthwise_2d_square_input_square_kernel(int n, int c, int h, int w, int k, int stride, int padding,
                                                     const float* x, const float* wt, float* y, cudaStream_t s) {
  if (stride < 1 || padding < 0 || k < 1) throw std::invalid_argument("depthwise2d: bad stride, padding or k");
  if (static_cast<long long>(n) * c > 65535) throw std::invalid_argument("depthwise2d: n * c must be at most 65535");
  if (n <= 0 || c <= 0 || h + 2 * padding < k || w + 2 * padding < k) return;
  const int oh = (h + 2 * padding - k) / stride + 1, ow = (w + 2 * padding - k) / stride + 1;
  const dim3 block(32, 8);
  const dim3 grid((ow + 31) / 32, (oh + 7) / 8, n * c);
  depthwise2d_kernel<<<grid, block, 0, s>>>(c, h, w, k, stride, padding, oh, ow, x, wt, y);
  detail::check_launch("kb_conv_depthwise_2d_square_input_square_kernel");
}

}  // namespace bench::kb
