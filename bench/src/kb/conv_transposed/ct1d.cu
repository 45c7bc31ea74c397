// Transposed 1-D convolution, stride 1, no padding, no bias (KernelBench 64).
#include <stark/stark.h>

#include <algorithm>
#include <cstdint>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather over the element type: x of the grid runs along the output
// row, y over (image, output channel) rows; output t takes x[t - j] * w[j]
// for every tap j and input channel, straight from global memory.
template <typename T>
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_1d_kernel(int64_t n, int64_t cin, int64_t cout, int64_t len, int64_t k, const T* x,
                                          const T* wt, T* y) {
  const int64_t olen = len + k - 1;
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= olen) return;
  for (int64_t row = blockIdx.y; row < n * cout; row += gridDim.y) {
    const int64_t co = row % cout, img = row / cout;
    T acc = 0;
    for (int64_t ci = 0; ci < cin; ++ci)
      for (int64_t j = 0; j < k; ++j) {
        const int64_t i = t - j;
        if (i >= 0 && i < len) acc += x[(img * cin + ci) * len + i] * wt[(ci * cout + co) * k + j];
      }
    y[row * olen + t] = acc;
  }
}

void kb_conv_transposed_1d(int n, int cin, int cout, int len, int k, const float* x, const float* wt, float* y,
                           cudaStream_t s) {
  if (n <= 0 || cout <= 0 || len <= 0 || k <= 0) return;
  const int64_t olen = static_cast<int64_t>(len) + k - 1;
  const dim3 grid(bench::detail::blocks_for(olen), static_cast<unsigned>(std::min<int64_t>(int64_t{n} * cout, 65535)));
  conv_transposed_1d_kernel<float><<<grid, bench::detail::kBlock, 0, s>>>(n, cin, cout, len, k, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_1d");
}

}  // namespace bench::kb
