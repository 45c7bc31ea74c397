// A kernel template in a header, instantiated by two translation units.
#pragma once
#include <stark/stark.h>

namespace swap {

template <typename T>
STARK_OPTIMIZE() __global__ void relu(int n, const T* x, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] > T(0) ? x[i] : T(0);
}

}  // namespace swap
