// Halving an image: each output pixel the mean of a 2x2 block, 16x16 threads
// per block, the image's shape passed as a struct.
#include <stark/stark.h>

#include "common/cuda_util.cuh"

namespace imgproc {
namespace detail {

STARK_OPTIMIZE()
__global__ void downsample2x_kernel(const float* in, Shape shape, float* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int out_width = shape.width / 2, out_height = shape.height / 2;
  if (x >= out_width || y >= out_height) return;
  const float* top = in + static_cast<size_t>(2 * y) * shape.pitch;
  const float* bottom = top + shape.pitch;
  out[static_cast<size_t>(y) * out_width + x] = 0.25f * (top[2 * x] + top[2 * x + 1] + bottom[2 * x] + bottom[2 * x + 1]);
}

}  // namespace detail

cudaError_t downsample2x(const float* in, Shape shape, float* out, cudaStream_t stream) {
  if (shape.width < 2 || shape.height < 2) return cudaErrorInvalidValue;
  dim3 block(16, 16);
  dim3 grid(detail::ceil_div(shape.width / 2, block.x), detail::ceil_div(shape.height / 2, block.y));
  detail::downsample2x_kernel<<<grid, block, 0, stream>>>(in, shape, out);
  return cudaGetLastError();
}

}  // namespace imgproc
