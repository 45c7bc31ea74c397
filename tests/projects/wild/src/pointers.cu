// Kernels launched the ways real projects launch them besides a plain
// <<<>>> on the kernel's name.
#include <stark/stark.h>

#include <cuda_runtime.h>

namespace wild {

// Picked at run time through a function pointer.
template <bool kAccumulate>
STARK_OPTIMIZE()
__global__ void scale_into(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = kAccumulate ? y[i] + a * x[i] : a * x[i];
}

using ScaleKernel = void (*)(int, float, const float*, float*);

void scale(int n, float a, const float* x, float* y, bool accumulate, cudaStream_t s) {
  ScaleKernel kernel = accumulate ? scale_into<true> : scale_into<false>;
  kernel<<<(n + 255) / 256, 256, 0, s>>>(n, a, x, y);
}

// Handed to a launch helper.
template <typename Kernel, typename... Args>
void launch_1d(Kernel kernel, int n, cudaStream_t s, Args... args) {
  kernel<<<(n + 127) / 128, 128, 0, s>>>(args...);
}

STARK_OPTIMIZE()
__global__ void square(int n, float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= x[i];
}

void square_all(int n, float* x, cudaStream_t s) { launch_1d(square, n, s, n, x); }

// Read by the runtime (occupancy, attributes), launched by name: its launch
// can still be rewritten.
STARK_OPTIMIZE()
__global__ void negate(int n, float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i];
}

void negate_all(int n, float* x) {
  int min_grid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, negate);
  cudaFuncSetAttribute(negate, cudaFuncAttributePreferredSharedMemoryCarveout, 0);
  negate<<<(n + block - 1) / block, block>>>(n, x);
}

// Through cudaLaunchKernel with the kernel in a pointer variable.
STARK_OPTIMIZE()
__global__ void halve(int n, float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}

void halve_all(int n, float* x) {
  const void* fn = reinterpret_cast<const void*>(&halve);
  void* args[] = {&n, &x};
  cudaLaunchKernel(fn, dim3((n + 255) / 256), dim3(256), args, 0, nullptr);
}

}  // namespace wild
