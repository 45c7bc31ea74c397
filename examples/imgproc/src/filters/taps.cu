#include "filters/taps.cuh"

namespace imgproc {

namespace detail {
__constant__ float c_taps[2 * kMaxRadius + 1];
}  // namespace detail

cudaError_t set_taps(const float* taps, int radius) {
  if (radius < 0 || radius > kMaxRadius) return cudaErrorInvalidValue;
  return cudaMemcpyToSymbol(detail::c_taps, taps, sizeof(float) * (2 * radius + 1));
}

}  // namespace imgproc
