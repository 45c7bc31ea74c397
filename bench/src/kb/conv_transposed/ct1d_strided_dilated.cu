// Transposed 1-D convolution, padded, strided, dilated, no bias
// (KernelBench 79).
#include <stark/stark.h>

#include <cstddef>

#include "bench/kb/conv_transposed.h"
#include "launch.h"

namespace bench::kb {

// Naive scatter over the element type: one thread per input element, which
// lands at i * stride - pad + j * dil for tap j and is added into every output
// channel there with an atomicAdd (y cleared by the launcher).
template <typename T>
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void conv_transposed_1d_scatter_kernel(int n, int cin, int cout, int len, int k, int stride, int pad,
                                                  int dil, int olen, const T* x, const T* wt, T* y) {
  const long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= static_cast<long long>(n) * cin * len) return;
  const int i = static_cast<int>(e % len);
  const int ci = static_cast<int>(e / len % cin);
  const int img = static_cast<int>(e / len / cin);
  const T v = x[e];
  for (int co = 0; co < cout; ++co) {
    T* row = y + (static_cast<size_t>(img) * cout + co) * olen;
    for (int j = 0; j < k; ++j) {
      const int t = i * stride - pad + j * dil;
      if (t >= 0 && t < olen) atomicAdd(row + t, v * wt[(static_cast<size_t>(ci) * cout + co) * k + j]);
    }
  }
}

void kb_conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated(int n, int cin, int cout, int len,
                                                                                  int k, int stride, int pad, int dil,
                                                                                  const float* x, const float* wt,
                                                                                  float* y, cudaStream_t s) {
  const int olen = (len - 1) * stride - 2 * pad + dil * (k - 1) + 1;
  if (n <= 0 || cout <= 0 || olen <= 0) return;
  bench::detail::check_launch("kb_conv_transposed_1d_..._dilated (clear)",
                              cudaMemsetAsync(y, 0, static_cast<size_t>(n) * cout * olen * sizeof(float), s));
  const long long inputs = static_cast<long long>(n) * cin * len;
  if (inputs <= 0) return;
  conv_transposed_1d_scatter_kernel<<<bench::detail::blocks_for(inputs), bench::detail::kBlock, 0, s>>>(
      n, cin, cout, len, k, stride, pad, dil, olen, x, wt, y);
  bench::detail::check_launch("kb_conv_transposed_1d_asymmetric_input_square_kernel_padded_strided_dilated");
}

}  // namespace bench::kb
