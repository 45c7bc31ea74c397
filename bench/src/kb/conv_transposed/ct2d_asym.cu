// Transposed 2-D convolution, asymmetric input, asymmetric kernel, stride 1,
// no padding, no bias (KernelBench 69).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// The sizes, as size_t fields of one argument.
struct ConvT2dDims {
  size_t n, cin, cout, h, w, kh, kw;
};

// Naive gather over the element type, one thread per output element on a
// flat 1-D grid; every input channel and tap read from global memory.
template <typename T>
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_2d_asymmetric_kernel(ConvT2dDims p, const T* x, const T* wt, T* y) {
  const size_t oh = p.h + p.kh - 1, ow = p.w + p.kw - 1;
  const size_t o = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= p.n * p.cout * oh * ow) return;
  const size_t c = o % ow, r = o / ow % oh, co = o / (ow * oh) % p.cout, img = o / (ow * oh * p.cout);
  T acc = T(0);
  for (size_t ci = 0; ci < p.cin; ++ci)
    for (size_t i = 0; i < p.kh; ++i) {
      if (r < i || r - i >= p.h) continue;
      for (size_t j = 0; j < p.kw; ++j) {
        if (c < j || c - j >= p.w) continue;
        acc += x[((img * p.cin + ci) * p.h + (r - i)) * p.w + (c - j)] * wt[((ci * p.cout + co) * p.kh + i) * p.kw + j];
      }
    }
  y[o] = acc;
}

template __global__ void conv_transposed_2d_asymmetric_kernel<float>(ConvT2dDims, const float*, const float*, float*);

void kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel(int n, int cin, int cout, int h, int w, int kh, int kw,
                                                              const float* x, const float* wt, float* y,
                                                              cudaStream_t s) {
  if (n <= 0 || cout <= 0 || h <= 0 || w <= 0 || kh <= 0 || kw <= 0) return;
  const ConvT2dDims p{size_t(n), size_t(cin), size_t(cout), size_t(h), size_t(w), size_t(kh), size_t(kw)};
  const long long outputs = static_cast<long long>(p.n * p.cout * (p.h + p.kh - 1) * (p.w + p.kw - 1));
  conv_transposed_2d_asymmetric_kernel<float><<<bench::detail::blocks_for(outputs), bench::detail::kBlock, 0, s>>>(
      p, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_2d_asymmetric_input_asymmetric_kernel");
}

}  // namespace bench::kb
