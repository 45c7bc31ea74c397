// What every unit of the library uses: error checks, sizes, launch helpers.
#pragma once

#include <cuda_runtime.h>
#include <imgproc/imgproc.h>

namespace imgproc::detail {

#define IMGPROC_TRY(call)                          \
  do {                                             \
    cudaError_t imgproc_status_ = (call);          \
    if (imgproc_status_ != cudaSuccess) return imgproc_status_; \
  } while (0)

constexpr int ceil_div(long long a, int b) { return static_cast<int>((a + b - 1) / b); }

/// Launches `kernel` over `count` elements, one thread each, in blocks of
/// `block` threads: the library's one place that writes a 1-D launch.
template <typename Kernel, typename... Args>
cudaError_t launch_1d(Kernel kernel, long long count, int block, cudaStream_t stream, Args... args) {
  if (count <= 0) return cudaSuccess;
  kernel<<<ceil_div(count, block), block, 0, stream>>>(args...);
  return cudaGetLastError();
}

}  // namespace imgproc::detail
