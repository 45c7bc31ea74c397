// 3-D max pooling (KernelBench 43: nn.MaxPool3d(3, stride=2, padding=1,
// dilation=3), return_indices=False, ceil_mode=False).
#include <stark/stark.h>

#include <cmath>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per output of a flat 1-D launch, its index decomposed
// into (plane, z, y, x) with 64-bit divisions; the 27 taps of a cubic window
// are loaded one by one, `dilation` apart on every axis, skipping padding
// (-inf). Written over the element type; the launcher runs it on float.
template <typename T>
STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void max_pool3d_kernel(const T* __restrict__ x, T* __restrict__ y, int planes, int d, int h, int w,
                                  int od, int oh, int ow, int kernel, int stride, int pad, int dilation) {
  const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= static_cast<long long>(planes) * od * oh * ow) return;
  const int ox = static_cast<int>(idx % ow);
  long long rest = idx / ow;
  const int oy = static_cast<int>(rest % oh);
  rest /= oh;
  const int oz = static_cast<int>(rest % od);
  const long long plane = rest / od;
  const T* in = x + plane * d * h * w;
  T best = static_cast<T>(-INFINITY);
  for (int kz = 0; kz < kernel; ++kz) {
    const int iz = oz * stride - pad + kz * dilation;
    if (iz < 0 || iz >= d) continue;
    for (int ky = 0; ky < kernel; ++ky) {
      const int iy = oy * stride - pad + ky * dilation;
      if (iy < 0 || iy >= h) continue;
      for (int kx = 0; kx < kernel; ++kx) {
        const int ix = ox * stride - pad + kx * dilation;
        if (ix < 0 || ix >= w) continue;
        const T v = in[(static_cast<long long>(iz) * h + iy) * w + ix];
        if (v > best || isnan(v)) best = v;
      }
    }
  }
  y[idx] = best;
}

void kb_max_pooling_3d(int n, int c, int d, int h, int w, int kernel, int stride, int padding, int dilation,
                       const float* x, float* y, cudaStream_t s) {
  const int od = pool_out(d, kernel, stride, padding, dilation), oh = pool_out(h, kernel, stride, padding, dilation),
            ow = pool_out(w, kernel, stride, padding, dilation);
  if (n <= 0 || c <= 0 || od <= 0 || oh <= 0 || ow <= 0) return;
  const long long outputs = static_cast<long long>(n) * c * od * oh * ow;
  max_pool3d_kernel<float><<<detail::blocks_for(outputs), detail::kBlock, 0, s>>>(
      x, y, n * c, d, h, w, od, oh, ow, kernel, stride, padding, dilation);
  detail::check_launch("kb::kb_max_pooling_3d");
}

}  // namespace bench::kb
