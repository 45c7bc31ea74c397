// KernelBench 60: nn.Conv3d(cin, cout, (k0, k1, k2), bias=False) on a cubic
// input with an asymmetric kernel, valid, stride 1.
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per output position (batch, i0, i1, i2) computing that
// position for every output channel in turn; the input window is re-read
// from global memory for each channel.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv3d_asym_kernel(int n, int cin, int d0, int d1, int d2, int cout, int k0, int k1, int k2,
                                   const float* x, const float* wt, float* y) {
  const int o0 = d0 - k0 + 1, o1 = d1 - k1 + 1, o2 = d2 - k2 + 1;
  const long long spatial = static_cast<long long>(o0) * o1 * o2;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n * spatial) return;
  const long long b = t / spatial, pos = t % spatial;
  const int i2 = static_cast<int>(pos % o2);
  const int i1 = static_cast<int>(pos / o2 % o1);
  const int i0 = static_cast<int>(pos / (static_cast<long long>(o2) * o1));
  const long long in_plane = static_cast<long long>(d0) * d1 * d2;
  const int taps = k0 * k1 * k2;
  for (int co = 0; co < cout; ++co) {
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci) {
      const long long base = (b * cin + ci) * in_plane;
      for (int a = 0; a < k0; ++a)
        for (int c = 0; c < k1; ++c)
          for (int e = 0; e < k2; ++e)
            acc += x[base + (static_cast<long long>(i0 + a) * d1 + i1 + c) * d2 + i2 + e] *
                   wt[(static_cast<long long>(co) * cin + ci) * taps + (a * k1 + c) * k2 + e];
    }
    y[(b * cout + co) * spatial + pos] = acc;
  }
}

void kb_conv_standard_3d_square_input_asymmetric_kernel(int n, int cin, int d0, int d1, int d2, int cout, int k0,
                                                        int k1, int k2, const float* x, const float* wt, float* y,
                                                        cudaStream_t s) {
  if (n <= 0 || cout <= 0 || d0 < k0 || d1 < k1 || d2 < k2) return;
  const long long positions = static_cast<long long>(n) * (d0 - k0 + 1) * (d1 - k1 + 1) * (d2 - k2 + 1);
  conv3d_asym_kernel<<<detail::blocks_for(positions), detail::kBlock, 0, s>>>(n, cin, d0, d1, d2, cout, k0, k1, k2,
                                                                              x, wt, y);
  detail::check_launch("kb_conv_standard_3d_square_input_asymmetric_kernel");
}

}  // namespace bench::kb
