// KernelBench 76: nn.Conv1d(cin, cout, k, stride=3, dilation=4, bias=False),
// no padding, on a long signal.
#include <stark/stark.h>

#include <cstddef>
#include <stdexcept>

#include "bench/kb/conv.h"
#include "launch.h"

namespace bench::kb {

// Naive: a 3-D grid, x over output positions, y over output channels, z over
// the batch; one output per thread reading its k dilated taps of every input
// channel from global memory (neighbouring threads `stride` floats apart).
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv1d_dilated_kernel(int cin, int len, int cout, int k, int stride, int dilation, const float* x,
                                      const float* wt, float* y) {
  const int olen = (len - dilation * (k - 1) - 1) / stride + 1;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= olen) return;
  const int co = blockIdx.y;
  const int b = blockIdx.z;
  const float* xb = x + static_cast<size_t>(b) * cin * len + static_cast<size_t>(t) * stride;
  const float* wc = wt + static_cast<size_t>(co) * cin * k;
  float acc = 0.0f;
  for (int ci = 0; ci < cin; ++ci)
    for (int j = 0; j < k; ++j) acc += xb[static_cast<size_t>(ci) * len + j * dilation] * wc[ci * k + j];
  y[(static_cast<size_t>(b) * cout + co) * olen + t] = acc;
}

void kb_conv_standard_1d_dilated_strided(int n, int cin, int len, int cout, int k, int stride, int dilation,
                                         const float* x, const float* wt, float* y, cudaStream_t s) {
  if (stride < 1 || dilation < 1 || k < 1) throw std::invalid_argument("conv1d_dilated: bad stride, dilation or k");
  if (n > 65535 || cout > 65535) throw std::invalid_argument("conv1d_dilated: n and cout must be at most 65535");
  if (n <= 0 || cout <= 0 || len < dilation * (k - 1) + 1) return;
  const int olen = (len - dilation * (k - 1) - 1) / stride + 1;
  const dim3 grid(detail::blocks_for(olen), cout, n);
  conv1d_dilated_kernel<<<grid, detail::kBlock, 0, s>>>(cin, len, cout, k, stride, dilation, x, wt, y);
  detail::check_launch("kb_conv_standard_1d_dilated_strided");
}

}  // namespace bench::kb
