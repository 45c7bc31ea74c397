// Elementwise fp32 kernels: fill (a helper, not annotated), saxpy, ReLU.
#include <stark/stark.h>

#include "cuda_check.h"
#include "nnops/detail/activation.cuh"
#include "nnops/nnops.h"

namespace nnops {

// Not annotated: STARK's scanner must leave this helper alone.
__global__ void fill_kernel(int n, float value, float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = value;
}

// Naive: one element per thread, scalar loads. Launched from two host
// functions: saxpy (<<<>>>) and add_inplace (cudaLaunchKernel).
STARK_OPTIMIZE("budget=20") __global__ void saxpy_kernel(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void fill(int n, float value, float* x, cudaStream_t s) {
  if (n <= 0) return;
  fill_kernel<<<detail::blocks_for(n), detail::kBlock, 0, s>>>(n, value, x);
  NNOPS_CHECK_LAUNCH();
}

void saxpy(int n, float a, const float* x, float* y, cudaStream_t s) {
  if (n <= 0) return;
  saxpy_kernel<<<detail::blocks_for(n), detail::kBlock, 0, s>>>(n, a, x, y);
  NNOPS_CHECK_LAUNCH();
}

void add_inplace(int n, const float* x, float* y, cudaStream_t s) {
  if (n <= 0) return;
  float a = 1.0f;
  void* args[] = {&n, &a, &x, &y};
  NNOPS_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(&saxpy_kernel), dim3(detail::blocks_for(n)),
                                    dim3(detail::kBlock), args, 0, s));
}

void relu(int n, const float* x, float* y, cudaStream_t s) {
  if (n <= 0) return;
  detail::relu_kernel<float><<<detail::blocks_for(n), detail::kBlock, 0, s>>>(n, x, y);
  NNOPS_CHECK_LAUNCH();
}

}  // namespace nnops
