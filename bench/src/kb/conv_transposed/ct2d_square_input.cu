// Transposed 2-D convolution, square input, asymmetric kernel (kh x kw),
// stride 1, no padding, no bias (KernelBench 65).
#include <stark/stark.h>

#include <algorithm>
#include <cstddef>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather with 16 x 16 blocks over the output plane and one grid layer
// per (image, output channel): one thread per output element.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_2d_square_input_kernel(int n, int cin, int cout, int size, int kh, int kw,
                                                       const float* __restrict__ x, const float* __restrict__ wt,
                                                       float* __restrict__ y) {
  const int oh = size + kh - 1, ow = size + kw - 1;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= ow || row >= oh) return;
  for (int layer = blockIdx.z; layer < n * cout; layer += gridDim.z) {
    const int img = layer / cout, co = layer % cout;
    float acc = 0.0f;
    for (int ci = 0; ci < cin; ++ci) {
      const float* plane = x + (static_cast<size_t>(img) * cin + ci) * size * size;
      const float* taps = wt + (static_cast<size_t>(ci) * cout + co) * kh * kw;
      for (int i = 0; i < kh; ++i) {
        const int r = row - i;
        if (r < 0 || r >= size) continue;
        for (int j = 0; j < kw; ++j) {
          const int c = col - j;
          if (c >= 0 && c < size) acc += plane[static_cast<size_t>(r) * size + c] * taps[i * kw + j];
        }
      }
    }
    y[(static_cast<size_t>(layer) * oh + row) * ow + col] = acc;
  }
}

void kb_conv_transposed_2d_square_input_asymmetric_kernel(int n, int cin, int cout, int size, int kh, int kw,
                                                          const float* x, const float* wt, float* y,
                                                          cudaStream_t s) {
  if (n <= 0 || cout <= 0 || size <= 0 || kh <= 0 || kw <= 0) return;
  const dim3 block(16, 16);
  const dim3 grid((size + kw - 1 + 15) / 16, (size + kh - 1 + 15) / 16, std::min(n * cout, 65535));
  conv_transposed_2d_square_input_kernel<<<grid, block, 0, s>>>(n, cin, cout, size, kh, kw, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_2d_square_input_asymmetric_kernel");
}

}  // namespace bench::kb
