// 1-D average pooling (KernelBench 44: nn.AvgPool1d(8, stride=1, padding=4),
// count_include_pad=True, ceil_mode=False).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: a 2-D grid, x over output positions and y over the n * c rows, one
// thread per output summing its `kernel` taps one load at a time (padding
// adds zeros). With count_include_pad and ceil_mode off, no window passes the
// padded end, so every sum divides by `kernel`, as torch's does.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void avg_pool1d_kernel(int in_len, int out_len, int kernel, int stride, int padding, const float* x,
                                  float* y) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  if (pos >= out_len) return;
  const size_t row = blockIdx.y;
  const float* in = x + row * in_len;
  const int start = pos * stride - padding;
  float sum = 0.0f;
  for (int k = 0; k < kernel; ++k) {
    const int t = start + k;
    if (t >= 0 && t < in_len) sum += in[t];
  }
  y[row * out_len + pos] = sum / static_cast<float>(kernel);
}

void kb_average_pooling_1d(int n, int c, int len, int kernel, int stride, int padding, const float* x, float* y,
                           cudaStream_t s) {
  const int out_len = pool_out(len, kernel, stride, padding);
  if (n <= 0 || c <= 0 || out_len <= 0) return;
  if (n * c > 65535) detail::check_launch("kb::kb_average_pooling_1d", cudaErrorInvalidValue);  // rows on grid y
  const dim3 grid((out_len + 255) / 256, n * c);
  avg_pool1d_kernel<<<grid, 256, 0, s>>>(len, out_len, kernel, stride, padding, x, y);
  detail::check_launch("kb::kb_average_pooling_1d");
}

}  // namespace bench::kb
