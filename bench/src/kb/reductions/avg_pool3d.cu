// 3-D average pooling (KernelBench 46: nn.AvgPool3d(3, stride=2, padding=1),
// count_include_pad=True, ceil_mode=False).
#include <stark/stark.h>

#include <cstdint>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// The sizes and window of a cubic 3-D pooling, passed by value.
struct Pool3dShape {
  int planes;            // n * c
  int in_d, in_h, in_w;
  int out_d, out_h, out_w;
  int kernel, stride, pad;
};

// Naive: a grid-stride loop over the flat output index, decomposed into
// (plane, z, y, x); each output sums its kernel^3 taps load by load
// (padding adds zeros) and divides by kernel^3 (count_include_pad; with
// ceil_mode off no window passes the padded end).
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void avg_pool3d_kernel(Pool3dShape s, const float* x, float* y) {
  const int64_t total = static_cast<int64_t>(s.planes) * s.out_d * s.out_h * s.out_w;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < total; o += step) {
    const int ox = static_cast<int>(o % s.out_w);
    const int oy = static_cast<int>(o / s.out_w % s.out_h);
    const int oz = static_cast<int>(o / (static_cast<int64_t>(s.out_w) * s.out_h) % s.out_d);
    const int64_t plane = o / (static_cast<int64_t>(s.out_w) * s.out_h * s.out_d);
    const float* in = x + plane * s.in_d * s.in_h * s.in_w;
    float sum = 0.0f;
    for (int kz = 0; kz < s.kernel; ++kz) {
      const int iz = oz * s.stride - s.pad + kz;
      if (iz < 0 || iz >= s.in_d) continue;
      for (int ky = 0; ky < s.kernel; ++ky) {
        const int iy = oy * s.stride - s.pad + ky;
        if (iy < 0 || iy >= s.in_h) continue;
        for (int kx = 0; kx < s.kernel; ++kx) {
          const int ix = ox * s.stride - s.pad + kx;
          if (ix >= 0 && ix < s.in_w) sum += in[(static_cast<int64_t>(iz) * s.in_h + iy) * s.in_w + ix];
        }
      }
    }
    y[o] = sum / static_cast<float>(s.kernel * s.kernel * s.kernel);
  }
}

void kb_average_pooling_3d(int n, int c, int d, int h, int w, int kernel, int stride, int padding, const float* x,
                           float* y, cudaStream_t st) {
  const Pool3dShape shape{n * c,
                          d,
                          h,
                          w,
                          pool_out(d, kernel, stride, padding),
                          pool_out(h, kernel, stride, padding),
                          pool_out(w, kernel, stride, padding),
                          kernel,
                          stride,
                          padding};
  if (n <= 0 || c <= 0 || shape.out_d <= 0 || shape.out_h <= 0 || shape.out_w <= 0) return;
  const int64_t outputs = static_cast<int64_t>(shape.planes) * shape.out_d * shape.out_h * shape.out_w;
  const int64_t blocks = (outputs + 255) / 256;
  avg_pool3d_kernel<<<static_cast<unsigned>(blocks < 8192 ? blocks : 8192), 256, 0, st>>>(shape, x, y);
  detail::check_launch("kb::kb_average_pooling_3d");
}

}  // namespace bench::kb
