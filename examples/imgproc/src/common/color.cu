#include "common/color.cuh"

namespace imgproc::detail {

__device__ float srgb_to_linear(float v) {
  return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

__device__ float linear_to_srgb(float v) {
  v = fminf(fmaxf(v, 0.0f), 1.0f);
  return v <= 0.0031308f ? 12.92f * v : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
}

}  // namespace imgproc::detail
