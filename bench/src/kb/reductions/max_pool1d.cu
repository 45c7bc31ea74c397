// 1-D max pooling (KernelBench 41: nn.MaxPool1d(8, stride=1, padding=4,
// dilation=3), return_indices=False, ceil_mode=False).
#include <stark/stark.h>

#include <cmath>
#include <cstdint>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: a grid-stride loop over the flat output index, decomposed into
// (row = sample * channel, position); each output reads its `kernel` taps
// `dilation` apart, skipping those in the padding (which counts as -inf).
// Neighbouring outputs share all but one tap, and every tap is a separate
// load. NaN wins, as in torch.
STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void max_pool1d_kernel(int rows, int in_len, int out_len, int kernel, int stride, int padding,
                                  int dilation, const float* x, float* y) {
  const int64_t total = static_cast<int64_t>(rows) * out_len;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < total; o += step) {
    const int64_t row = o / out_len;
    const int pos = static_cast<int>(o - row * out_len);
    const float* in = x + row * in_len;
    const int start = pos * stride - padding;
    float best = -INFINITY;
    for (int k = 0; k < kernel; ++k) {
      const int t = start + k * dilation;
      if (t < 0 || t >= in_len) continue;
      const float v = in[t];
      if (v > best || isnan(v)) best = v;
    }
    y[o] = best;
  }
}

void kb_max_pooling_1d(int n, int c, int len, int kernel, int stride, int padding, int dilation, const float* x,
                       float* y, cudaStream_t s) {
  const int out_len = pool_out(len, kernel, stride, padding, dilation);
  if (n <= 0 || c <= 0 || out_len <= 0) return;
  const int rows = n * c;
  const int64_t blocks = (static_cast<int64_t>(rows) * out_len + 255) / 256;
  max_pool1d_kernel<<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), 256, 0, s>>>(
      rows, len, out_len, kernel, stride, padding, dilation, x, y);
  detail::check_launch("kb::kb_max_pooling_1d");
}

}  // namespace bench::kb
