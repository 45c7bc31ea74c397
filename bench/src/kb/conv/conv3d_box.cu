// KernelBench 66: nn.Conv3d(cin, cout, (kd, kh, kw), bias=False), asymmetric
// input and kernel, valid, stride 1.
#include <stark/stark.h>

#include <cstdint>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// The sizes of one 3-D convolution, passed to the kernel by value.
struct Conv3dBoxDims {
  int n, cin, cout;
  int in[3];   // d, h, w
  int k[3];    // kd, kh, kw
  int out[3];  // in - k + 1
};

// Naive: one thread per output element over a flat 1-D grid; the index is
// split into (batch, channel, z, y, x) and the cin x kd x kh x kw window is
// read from global memory.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv3d_box_kernel(Conv3dBoxDims g, const float* __restrict__ x, const float* __restrict__ wt,
                                  float* __restrict__ y) {
  long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long total = static_cast<long long>(g.n) * g.cout * g.out[0] * g.out[1] * g.out[2];
  if (idx >= total) return;
  long long r = idx;
  const int ox = static_cast<int>(r % g.out[2]);
  r /= g.out[2];
  const int oy = static_cast<int>(r % g.out[1]);
  r /= g.out[1];
  const int oz = static_cast<int>(r % g.out[0]);
  r /= g.out[0];
  const int co = static_cast<int>(r % g.cout);
  const long long b = r / g.cout;
  float acc = 0.0f;
  for (int ci = 0; ci < g.cin; ++ci)
    for (int a = 0; a < g.k[0]; ++a)
      for (int c = 0; c < g.k[1]; ++c)
        for (int e = 0; e < g.k[2]; ++e) {
          const long long xi = (((b * g.cin + ci) * g.in[0] + oz + a) * g.in[1] + oy + c) * g.in[2] + ox + e;
          const long long wi = (((static_cast<long long>(co) * g.cin + ci) * g.k[0] + a) * g.k[1] + c) * g.k[2] + e;
          acc += x[xi] * wt[wi];
        }
  y[idx] = acc;
}

void kb_conv_standard_3d_asymmetric_input_asymmetric_kernel(int n, int cin, int d, int h, int w, int cout, int kd,
                                                            int kh, int kw, const float* x, const float* wt, float* y,
                                                            cudaStream_t s) {
  if (n <= 0 || cout <= 0 || d < kd || h < kh || w < kw) return;
  const Conv3dBoxDims g{n, cin, cout, {d, h, w}, {kd, kh, kw}, {d - kd + 1, h - kh + 1, w - kw + 1}};
  const long long total = static_cast<long long>(n) * cout * g.out[0] * g.out[1] * g.out[2];
  conv3d_box_kernel<<<detail::blocks_for(total), detail::kBlock, 0, s>>>(g, x, wt, y);
  detail::check_launch("kb_conv_standard_3d_asymmetric_input_asymmetric_kernel");
}

}  // namespace bench::kb
