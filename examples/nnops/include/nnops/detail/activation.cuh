// Elementwise activation kernels, defined in a header so that every
// translation unit can instantiate them for its own element type
// (src/elementwise.cu uses float, src/elementwise_f64.cu double).
//
// The header uses the STARK_OPTIMIZE macro rather than the raw
// [[stark::optimize]] attribute: it compiles without nvcc's warning 2803 in
// any target that includes it, whether or not STARK silences that warning.
#ifndef NNOPS_DETAIL_ACTIVATION_CUH
#define NNOPS_DETAIL_ACTIVATION_CUH

#include <stark/stark.h>

namespace nnops::detail {

// Naive: one element per thread, scalar loads and stores.
template <typename T>
STARK_OPTIMIZE() __global__ void relu_kernel(int n, const T* x, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > T(0) ? x[i] : T(0);
}

}  // namespace nnops::detail

#endif  // NNOPS_DETAIL_ACTIVATION_CUH
