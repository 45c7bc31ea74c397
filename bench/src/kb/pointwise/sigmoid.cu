// KernelBench 21: Sigmoid.
#include <stark/stark.h>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one element per thread, 128-thread blocks, expf and a true
// division; a template over the element type, instantiated for float below.
// rtol 1e-5 admits __expf but not a half-precision exponential.
template <typename T>
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void sigmoid_kernel(int n, const T* x, T* y) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < static_cast<unsigned>(n)) y[i] = T(1) / (T(1) + expf(-x[i]));
}

template __global__ void sigmoid_kernel<float>(int, const float*, float*);

void kb_sigmoid(int n, const float* x, float* y, cudaStream_t s) {
  if (n <= 0) return;
  constexpr int kThreads = 128;
  sigmoid_kernel<float><<<(n + kThreads - 1) / kThreads, kThreads, 0, s>>>(n, x, y);
  detail::check_launch("kb_sigmoid");
}

}  // namespace bench::kb
