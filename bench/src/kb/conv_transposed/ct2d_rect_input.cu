// Transposed 2-D convolution, asymmetric (rectangular) input, square kernel,
// stride 1, no padding, no bias (KernelBench 71).
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather in a grid-stride loop, sizes as size_t: one output element
// per iteration, the cin x k x k window from global memory.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_2d_rect_input_kernel(size_t n, size_t cin, size_t cout, size_t h, size_t w, size_t k,
                                                     const float* __restrict__ x, const float* __restrict__ wt,
                                                     float* __restrict__ y) {
  const size_t oh = h + k - 1, ow = w + k - 1;
  const size_t total = n * cout * oh * ow;
  const size_t step = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t o = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < total; o += step) {
    const size_t ox = o % ow, oy = (o / ow) % oh, plane = o / (ow * oh);  // plane = img * cout + co
    const size_t co = plane % cout, img = plane / cout;
    float acc = 0.0f;
    for (size_t ci = 0; ci < cin; ++ci)
      for (size_t ky = 0; ky < k; ++ky)
        for (size_t kx = 0; kx < k; ++kx) {
          // oy - ky and ox - kx wrap around below zero, so one test per side.
          const size_t iy = oy - ky, ix = ox - kx;
          if (iy < h && ix < w)
            acc += x[((img * cin + ci) * h + iy) * w + ix] * wt[((ci * cout + co) * k + ky) * k + kx];
        }
    y[o] = acc;
  }
}

void kb_conv_transposed_2d_asymmetric_input_square_kernel(int n, int cin, int cout, int h, int w, int k,
                                                          const float* x, const float* wt, float* y,
                                                          cudaStream_t s) {
  if (n <= 0 || cout <= 0 || h <= 0 || w <= 0 || k <= 0) return;
  const long long outputs = static_cast<long long>(n) * cout * (h + k - 1) * (w + k - 1);
  const unsigned blocks = std::min(bench::detail::blocks_for(outputs), 4096u);
  conv_transposed_2d_rect_input_kernel<<<blocks, bench::detail::kBlock, 0, s>>>(n, cin, cout, h, w, k, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_2d_asymmetric_input_square_kernel");
}

}  // namespace bench::kb
