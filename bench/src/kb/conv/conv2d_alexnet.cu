// KernelBench 50: AlexNet's first layer, nn.Conv2d(3, 96, kernel_size=11,
// stride=4, padding=2) with its bias.
#include <stark/stark.h>

#include <cstdint>
#include <stdexcept>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive direct convolution: one thread per output element (a flat index over
// n x cout x oh x ow), the cin x k x k window and the weights read from global
// memory for every output, taps over the zero padding skipped.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv2d_alexnet_kernel(int n, int cin, int h, int w, int cout, int k, int stride, int pad,
                                      const float* __restrict__ x, const float* __restrict__ wt,
                                      const float* __restrict__ bias, float* __restrict__ y) {
  const int oh = (h + 2 * pad - k) / stride + 1;
  const int ow = (w + 2 * pad - k) / stride + 1;
  const int64_t total = int64_t(n) * cout * oh * ow;
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= total) return;
  const int ox = int(idx % ow);
  const int oy = int(idx / ow % oh);
  const int co = int(idx / (int64_t(ow) * oh) % cout);
  const int b = int(idx / (int64_t(ow) * oh * cout));
  float acc = bias[co];
  for (int ci = 0; ci < cin; ++ci) {
    for (int ky = 0; ky < k; ++ky) {
      const int iy = oy * stride - pad + ky;
      if (iy < 0 || iy >= h) continue;
      for (int kx = 0; kx < k; ++kx) {
        const int ix = ox * stride - pad + kx;
        if (ix < 0 || ix >= w) continue;
        acc += x[((int64_t(b) * cin + ci) * h + iy) * w + ix] * wt[((int64_t(co) * cin + ci) * k + ky) * k + kx];
      }
    }
  }
  y[idx] = acc;
}

void kb_conv_standard_2d_square_input_square_kernel(int n, int cin, int h, int w, int cout, int k, int stride,
                                                    int padding, const float* x, const float* wt, const float* bias,
                                                    float* y, cudaStream_t s) {
  if (stride < 1 || padding < 0 || k < 1) throw std::invalid_argument("conv2d_alexnet: bad stride, padding or k");
  if (n <= 0 || cout <= 0 || h + 2 * padding < k || w + 2 * padding < k) return;
  const int64_t total = int64_t(n) * cout * ((h + 2 * padding - k) / stride + 1) * ((w + 2 * padding - k) / stride + 1);
  conv2d_alexnet_kernel<<<detail::blocks_for(total), detail::kBlock, 0, s>>>(n, cin, h, w, cout, k, stride, padding,
                                                                             x, wt, bias, y);
  detail::check_launch("kb_conv_standard_2d_square_input_square_kernel");
}

}  // namespace bench::kb
