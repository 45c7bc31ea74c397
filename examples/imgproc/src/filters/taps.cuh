// The filter taps of convolve_rows, in __constant__ memory: defined in
// taps.cu, read by convolve.cu's kernels (separable compilation).
#pragma once

#include <imgproc/imgproc.h>

namespace imgproc::detail {

extern __constant__ float c_taps[2 * kMaxRadius + 1];

}  // namespace imgproc::detail
