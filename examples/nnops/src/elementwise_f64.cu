// Elementwise fp64 kernels: the double instantiation of the header's ReLU.
#include "cuda_check.h"
#include "nnops/detail/activation.cuh"
#include "nnops/nnops.h"

namespace nnops {

void relu(int n, const double* x, double* y, cudaStream_t s) {
  if (n <= 0) return;
  detail::relu_kernel<double><<<detail::blocks_for(n), detail::kBlock, 0, s>>>(n, x, y);
  NNOPS_CHECK_LAUNCH();
}

}  // namespace nnops
