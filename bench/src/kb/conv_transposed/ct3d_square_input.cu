// Transposed 3-D convolution, cubic input, asymmetric kernel (kd x kh x kw),
// stride 1, no padding, no bias (KernelBench 68).
#include <stark/stark.h>

#include <algorithm>
#include <cstdint>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive gather in a grid-stride loop over 64-bit output indices; per input
// channel a pointer to its volume and one to its kd x kh x kw taps.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_3d_square_input_kernel(const int64_t n, const int64_t cin, const int64_t cout,
                                                       const int64_t size, const int64_t kd, const int64_t kh,
                                                       const int64_t kw, const float* const x, const float* const wt,
                                                       float* const y) {
  const int64_t od = size + kd - 1, oh = size + kh - 1, ow = size + kw - 1;
  const int64_t total = n * cout * od * oh * ow;
  const int64_t volume = size * size * size, taps = kd * kh * kw;
  for (int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < total;
       o += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t px = o % ow, py = o / ow % oh, pz = o / (ow * oh) % od;
    const int64_t co = o / (ow * oh * od) % cout, img = o / (ow * oh * od * cout);
    float acc = 0.0f;
    for (int64_t ci = 0; ci < cin; ++ci) {
      const float* v = x + (img * cin + ci) * volume;
      const float* t = wt + (ci * cout + co) * taps;
      for (int64_t a = 0; a < kd; ++a)
        for (int64_t b = 0; b < kh; ++b)
          for (int64_t c = 0; c < kw; ++c) {
            const int64_t iz = pz - a, iy = py - b, ix = px - c;
            if (iz < 0 || iz >= size || iy < 0 || iy >= size || ix < 0 || ix >= size) continue;
            acc += v[(iz * size + iy) * size + ix] * t[(a * kh + b) * kw + c];
          }
    }
    y[o] = acc;
  }
}

void kb_conv_transposed_3d_square_input_asymmetric_kernel(int n, int cin, int cout, int size, int kd, int kh, int kw,
                                                          const float* x, const float* wt, float* y,
                                                          cudaStream_t s) {
  if (n <= 0 || cout <= 0 || size <= 0 || kd <= 0 || kh <= 0 || kw <= 0) return;
  const int64_t outputs = int64_t{n} * cout * (size + kd - 1) * (size + kh - 1) * (size + kw - 1);
  const unsigned blocks = std::min(bench::detail::blocks_for(outputs), 1u << 20);
  conv_transposed_3d_square_input_kernel<<<blocks, bench::detail::kBlock, 0, s>>>(n, cin, cout, size, kd, kh, kw, x,
                                                                                  wt, y);
  bench::detail::check_launch("kb_conv_transposed_3d_square_input_asymmetric_kernel");
}

}  // namespace bench::kb
