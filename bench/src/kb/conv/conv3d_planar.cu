// KernelBench 59: nn.Conv3d(cin, cout, (k, k, 1), bias=False) on an
// n x cin x d0 x d1 x d2 input with a short last dimension, valid, stride 1:
// a k x k convolution in (d0, d1) for every index of d2.
#include <stark/stark.h>

#include <algorithm>
#include <cstdint>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: a grid-stride loop over the flat output index (int64_t), one output
// per iteration; pointers walk the input window (step d1 * d2 along d0, d2
// along d1) and the k x k weights of each input channel.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv3d_planar_kernel(int n, int cin, int d0, int d1, int d2, int cout, int k, const float* x,
                                     const float* wt, float* y) {
  const int o0 = d0 - k + 1, o1 = d1 - k + 1;
  const int64_t plane_out = int64_t(o0) * o1 * d2;
  const int64_t plane_in = int64_t(d0) * d1 * d2;
  const int64_t total = int64_t(n) * cout * plane_out;
  for (int64_t o = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; o < total; o += int64_t(gridDim.x) * blockDim.x) {
    const int64_t pos = o % plane_out;
    const int64_t bc = o / plane_out;  // b * cout + co
    const int co = int(bc % cout);
    const int64_t b = bc / cout;
    const int i2 = int(pos % d2);
    const int i1 = int(pos / d2 % o1);
    const int i0 = int(pos / (int64_t(d2) * o1));
    const float* src = x + b * cin * plane_in + (int64_t(i0) * d1 + i1) * d2 + i2;
    const float* filt = wt + int64_t(co) * cin * k * k;
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci, src += plane_in, filt += k * k)
      for (int a = 0; a < k; ++a)
        for (int c = 0; c < k; ++c) acc += src[(int64_t(a) * d1 + c) * d2] * filt[a * k + c];
    y[o] = acc;
  }
}

void kb_conv_standard_3d_asymmetric_input_square_kernel(int n, int cin, int d0, int d1, int d2, int cout, int k,
                                                        const float* x, const float* wt, float* y, cudaStream_t s) {
  if (n <= 0 || cout <= 0 || d2 <= 0 || d0 < k || d1 < k) return;
  const int64_t total = int64_t(n) * cout * (d0 - k + 1) * (d1 - k + 1) * d2;
  const unsigned blocks = std::min(detail::blocks_for(total), 65535u);
  conv3d_planar_kernel<<<blocks, detail::kBlock, 0, s>>>(n, cin, d0, d1, d2, cout, k, x, wt, y);
  detail::check_launch("kb_conv_standard_3d_asymmetric_input_square_kernel");
}

}  // namespace bench::kb
