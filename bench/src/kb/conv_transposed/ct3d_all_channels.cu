// Transposed 3-D convolution, asymmetric input, cubic kernel, stride 1, no
// padding, no bias (KernelBench 70).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather, one thread per output voxel of one image, looping over every
// output channel: for each it sums the cin x k^3 window from global memory
// again and writes y[img][co][voxel].
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_3d_all_channels_kernel(int n, int cin, int cout, int d, int h, int w, int k,
                                                       const float* x, const float* wt, float* y) {
  const int od = d + k - 1, oh = h + k - 1, ow = w + k - 1;
  const long long voxels = static_cast<long long>(od) * oh * ow;
  const long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= n * voxels) return;
  const int img = static_cast<int>(p / voxels);
  const long long v = p % voxels;
  const int vx = static_cast<int>(v % ow), vy = static_cast<int>(v / ow % oh), vz = static_cast<int>(v / ow / oh);
  for (int co = 0; co < cout; ++co) {
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci)
      for (int a = 0; a < k; ++a) {
        const int iz = vz - a;
        if (iz < 0 || iz >= d) continue;
        for (int b = 0; b < k; ++b) {
          const int iy = vy - b;
          if (iy < 0 || iy >= h) continue;
          for (int c = 0; c < k; ++c) {
            const int ix = vx - c;
            if (ix < 0 || ix >= w) continue;
            acc += x[(((static_cast<size_t>(img) * cin + ci) * d + iz) * h + iy) * w + ix] *
                   wt[(((static_cast<size_t>(ci) * cout + co) * k + a) * k + b) * k + c];
          }
        }
      }
    y[(static_cast<size_t>(img) * cout + co) * voxels + v] = acc;
  }
}

void kb_conv_transposed_3d_asymmetric_input_square_kernel(int n, int cin, int cout, int d, int h, int w, int k,
                                                          const float* x, const float* wt, float* y,
                                                          cudaStream_t s) {
  if (n <= 0 || cout <= 0 || d <= 0 || h <= 0 || w <= 0 || k <= 0) return;
  const long long pixels = static_cast<long long>(n) * (d + k - 1) * (h + k - 1) * (w + k - 1);
  conv_transposed_3d_all_channels_kernel<<<bench::detail::blocks_for(pixels), bench::detail::kBlock, 0, s>>>(
      n, cin, cout, d, h, w, k, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_3d_asymmetric_input_square_kernel");
}

}  // namespace bench::kb
