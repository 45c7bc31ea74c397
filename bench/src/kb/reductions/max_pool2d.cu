// 2-D max pooling (KernelBench 42: nn.MaxPool2d(4, stride=1, padding=1,
// dilation=1), ceil_mode=False).
#include <stark/stark.h>

#include <cmath>
#include <cstddef>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// The sizes and window of a square 2-D pooling, passed by value.
struct Pool2d {
  int in_h, in_w;
  int out_h, out_w;
  int kernel, stride, pad, dilation;
};

// Naive: a 3-D grid, one thread per output: x and y over the output columns
// and rows (32 x 8 blocks), z over the n * c planes. Each thread reads its
// kernel x kernel window tap by tap; padding counts as -inf, NaN wins.
STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void max_pool2d_kernel(Pool2d p, const float* x, float* y) {
  const int ox = blockIdx.x * blockDim.x + threadIdx.x;
  const int oy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ox >= p.out_w || oy >= p.out_h) return;
  const size_t plane = blockIdx.z;
  const float* in = x + plane * p.in_h * p.in_w;
  float best = -INFINITY;
  for (int ky = 0; ky < p.kernel; ++ky) {
    const int iy = oy * p.stride - p.pad + ky * p.dilation;
    if (iy < 0 || iy >= p.in_h) continue;
    for (int kx = 0; kx < p.kernel; ++kx) {
      const int ix = ox * p.stride - p.pad + kx * p.dilation;
      if (ix < 0 || ix >= p.in_w) continue;
      const float v = in[iy * p.in_w + ix];
      if (v > best || isnan(v)) best = v;
    }
  }
  y[(plane * p.out_h + oy) * p.out_w + ox] = best;
}

void kb_max_pooling_2d(int n, int c, int h, int w, int kernel, int stride, int padding, int dilation, const float* x,
                       float* y, cudaStream_t s) {
  const Pool2d p{h, w, pool_out(h, kernel, stride, padding, dilation), pool_out(w, kernel, stride, padding, dilation),
                 kernel, stride, padding, dilation};
  if (n <= 0 || c <= 0 || p.out_h <= 0 || p.out_w <= 0) return;
  if (n * c > 65535) detail::check_launch("kb::kb_max_pooling_2d", cudaErrorInvalidValue);  // planes on grid z
  const dim3 block(32, 8);
  const dim3 grid((p.out_w + 31) / 32, (p.out_h + 7) / 8, n * c);
  max_pool2d_kernel<<<grid, block, 0, s>>>(p, x, y);
  detail::check_launch("kb::kb_max_pooling_2d");
}

}  // namespace bench::kb
