// A template kernel defined in a header, instantiated from two units.
#pragma once
#include <stark/stark.h>

namespace edge {
namespace detail {

template <typename T, int kUnroll>
STARK_OPTIMIZE("budget=8", "rtol=1e-5")
__global__ void scale(int n, T alpha, const T* __restrict__ x, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i];
}

}  // namespace detail

/// Host launcher with its own launch site in the header.
template <typename T>
void scale_default(int n, T alpha, const T* x, T* y, cudaStream_t s) {
  detail::scale<T, 4><<<(n + 255) / 256, 256, 0, s>>>(n, alpha, x, y);
}

}  // namespace edge
