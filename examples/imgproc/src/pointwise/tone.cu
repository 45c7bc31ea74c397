// Exposure and the sRGB curve, pixel by pixel: a grid-stride loop launched
// through the library's launch helper, calling color.cu's functions.
#include <stark/stark.h>

#include "common/color.cuh"
#include "common/cuda_util.cuh"

namespace imgproc {
namespace detail {

STARK_OPTIMIZE()
__global__ void tone_map_kernel(const float* in, float* out, size_t count, float exposure) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    out[i] = linear_to_srgb(exposure * srgb_to_linear(in[i]));
}

}  // namespace detail

cudaError_t tone_map(const float* in, float* out, size_t count, float exposure, cudaStream_t stream) {
  return detail::launch_1d(detail::tone_map_kernel, static_cast<long long>(count), 256, stream, in, out, count,
                           exposure);
}

}  // namespace imgproc
