// sRGB transfer functions, defined once in color.cu and called from other
// units' kernels (the library is built with separable compilation).
#pragma once

namespace imgproc::detail {

__device__ float srgb_to_linear(float v);
__device__ float linear_to_srgb(float v);

}  // namespace imgproc::detail
