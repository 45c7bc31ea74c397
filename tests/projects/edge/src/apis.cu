#include <cuda_runtime.h>
#include <stark/stark.h>

// A C-linkage kernel launched through the runtime API.
extern "C" STARK_OPTIMIZE() __global__ void axpy_c(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

// Declared first (annotated on the prototype), defined below.
namespace api {
STARK_OPTIMIZE("skip=false", "seed=7") __global__ void negate(int n, float* x);
}

__global__ void api::negate(int n, float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i];
}

cudaError_t launch_axpy(int n, float a, const float* x, float* y, cudaStream_t s) {
  void* args[] = {&n, &a, &x, &y};
  return cudaLaunchKernel((const void*)axpy_c, dim3((n + 255) / 256), dim3(256), args, 0, s);
}

cudaError_t launch_negate(int n, float* x) {
  void* args[] = {&n, &x};
  return cudaLaunchKernel(api::negate, dim3((n + 127) / 128), dim3(128), args);
}

cudaError_t launch_negate_ex(int n, float* x) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 127) / 128);
  config.blockDim = dim3(128);
  return cudaLaunchKernelEx(&config, api::negate, n, x);
}
