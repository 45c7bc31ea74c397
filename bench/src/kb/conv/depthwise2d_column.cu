// KernelBench 83: depthwise nn.Conv2d(c, c, kernel_size=(k, 1), stride,
// padding, dilation, groups=c, bias=False): a vertical k-tap filter per
// channel on a square input.
#include <stark/stark.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: a grid-stride loop over the flat output index, one output per
// iteration, its k taps down the column read from global memory. Written
// for any element type; the bench launches it with float.
template <typename T>
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void depthwise2d_column_kernel(int64_t planes, int h, int w, int c, int k, int stride, int pad,
                                          int dilation, const T* x, const T* wt, T* y) {
  const int oh = (h + 2 * pad - dilation * (k - 1) - 1) / stride + 1;
  const int ow = (w + 2 * pad - 1) / stride + 1;
  const int64_t total = planes * oh * ow;
  for (int64_t o = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; o < total; o += int64_t(gridDim.x) * blockDim.x) {
    const int ox = int(o % ow);
    const int oy = int(o / ow % oh);
    const int64_t plane = o / (int64_t(ow) * oh);
    const int ch = int(plane % c);
    const int ix = ox * stride - pad;
    T acc = T(0);
    if (ix >= 0 && ix < w) {
      for (int j = 0; j < k; ++j) {
        const int iy = oy * stride - pad + j * dilation;
        if (iy >= 0 && iy < h) acc += x[(plane * h + iy) * w + ix] * wt[ch * k + j];
      }
    }
    y[o] = acc;
  }
}

void kb_conv_depthwise_2d_square_input_asymmetric_kernel(int n, int c, int h, int w, int k, int stride, int padding,
                                                         int dilation, const float* x, const float* wt, float* y,
                                                         cudaStream_t s) {
  if (stride < 1 || padding < 0 || dilation < 1 || k < 1)
    throw std::invalid_argument("depthwise2d_column: bad stride, padding, dilation or k");
  if (n <= 0 || c <= 0 || h + 2 * padding < dilation * (k - 1) + 1 || w + 2 * padding < 1) return;
  const int oh = (h + 2 * padding - dilation * (k - 1) - 1) / stride + 1;
  const int ow = (w + 2 * padding - 1) / stride + 1;
  const int64_t total = int64_t(n) * c * oh * ow;
  const unsigned blocks = std::min(detail::blocks_for(total), 32768u);
  depthwise2d_column_kernel<float>
      <<<blocks, detail::kBlock, 0, s>>>(int64_t(n) * c, h, w, c, k, stride, padding, dilation, x, wt, y);
  detail::check_launch("kb_conv_depthwise_2d_square_input_asymmetric_kernel");
}

}  // namespace bench::kb
