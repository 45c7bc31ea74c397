// Transposed 2-D convolution, square input, square kernel, stride 1, no
// padding, no bias (KernelBench 57).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather: one thread per output element. With stride 1 the input pixel
// under tap (ky, kx) of output (oy, ox) is (oy - ky, ox - kx); every tap and
// every input channel is read from global memory for every output.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_2d_square_kernel(int n, int cin, int cout, int size, int k, const float* x,
                                                 const float* wt, float* y) {
  int out = size + k - 1;
  long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(n) * cout * out * out) return;
  int ox = static_cast<int>(o % out);
  int oy = static_cast<int>(o / out % out);
  int co = static_cast<int>(o / (static_cast<long long>(out) * out) % cout);
  int img = static_cast<int>(o / (static_cast<long long>(out) * out * cout));
  float acc = 0.0f;
  for (int ci = 0; ci < cin; ++ci) {
    for (int ky = 0; ky < k; ++ky) {
      int iy = oy - ky;
      if (iy < 0 || iy >= size) continue;
      for (int kx = 0; kx < k; ++kx) {
        int ix = ox - kx;
        if (ix < 0 || ix >= size) continue;
        acc += x[((static_cast<size_t>(img) * cin + ci) * size + iy) * size + ix] *
               wt[((static_cast<size_t>(ci) * cout + co) * k + ky) * k + kx];
      }
    }
  }
  y[o] = acc;
}

void kb_conv_transposed_2d_square_input_square_kernel(int n, int cin, int cout, int size, int k, const float* x,
                                                       const float* wt, float* y, cudaStream_t s) {
  if (n <= 0 || cout <= 0 || size <= 0 || k <= 0) return;
  long long out = size + k - 1;
  long long outputs = static_cast<long long>(n) * cout * out * out;
  conv_transposed_2d_square_kernel<<<bench::detail::blocks_for(outputs), bench::detail::kBlock, 0, s>>>(
      n, cin, cout, size, k, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_2d_square_input_square_kernel");
}

}  // namespace bench::kb
