// KernelBench 54: nn.Conv3d(cin, cout, (k, k, k), bias=False), valid, stride 1.
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per output element; threads of a block cover a 32 x 8
// patch of one (batch, channel, depth) output plane, grid.z walks the planes
// (more planes than gridDim.z: each thread does several, one after another).
// The kernel extent is a template argument, the window is still read from
// global memory for every output.
template <int K>
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv3d_cubic_kernel(int n, int cin, int d, int h, int w, int cout, const float* x, const float* wt,
                                    float* y) {
  const int od = d - K + 1, oh = h - K + 1, ow = w - K + 1;
  const int ox = blockIdx.x * blockDim.x + threadIdx.x;
  const int oy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ox >= ow || oy >= oh) return;
  const long long planes = static_cast<long long>(n) * cout * od;
  for (long long p = blockIdx.z; p < planes; p += gridDim.z) {
    const int oz = static_cast<int>(p % od);
    const int co = static_cast<int>(p / od % cout);
    const int b = static_cast<int>(p / (static_cast<long long>(od) * cout));
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci) {
      const float* src = x + (((static_cast<size_t>(b) * cin + ci) * d + oz) * h + oy) * w + ox;
      const float* filt = wt + (static_cast<size_t>(co) * cin + ci) * K * K * K;
      for (int kz = 0; kz < K; ++kz)
        for (int ky = 0; ky < K; ++ky)
          for (int kx = 0; kx < K; ++kx)
            acc += src[(static_cast<size_t>(kz) * h + ky) * w + kx] * filt[(kz * K + ky) * K + kx];
    }
    y[((static_cast<size_t>(p) * oh) + oy) * ow + ox] = acc;
  }
}

void kb_conv_standard_3d_square_input_square_kernel(int n, int cin, int d, int h, int w, int cout, int k,
                                                    const float* x, const float* wt, float* y, cudaStream_t s) {
  if (k != 3 && k != 5) throw std::invalid_argument("conv3d_cubic: kernel extent must be 3 or 5");
  if (n <= 0 || cout <= 0 || d < k || h < k || w < k) return;
  const dim3 block(32, 8);
  const long long planes = static_cast<long long>(n) * cout * (d - k + 1);
  const dim3 grid((w - k + 1 + block.x - 1) / block.x, (h - k + 1 + block.y - 1) / block.y,
                  static_cast<unsigned>(std::min<long long>(planes, 65535)));
  if (k == 3)
    conv3d_cubic_kernel<3><<<grid, block, 0, s>>>(n, cin, d, h, w, cout, x, wt, y);
  else
    conv3d_cubic_kernel<5><<<grid, block, 0, s>>>(n, cin, d, h, w, cout, x, wt, y);
  detail::check_launch("kb_conv_standard_3d_square_input_square_kernel");
}

}  // namespace bench::kb
