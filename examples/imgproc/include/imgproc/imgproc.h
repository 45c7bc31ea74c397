// imgproc: image operations on the GPU. Images are row-major float (or
// double) planes in device memory, `pitch` elements from one row to the next.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace imgproc {

struct Shape {
  int width;
  int height;
  int pitch;  // elements between the starts of two rows, >= width
};

/// The largest filter `convolve_rows` takes: 2 * kMaxRadius + 1 taps.
constexpr int kMaxRadius = 15;

/// Sets the taps of the next convolve_rows calls (2 * radius + 1 values).
cudaError_t set_taps(const float* taps, int radius);

/// out = in convolved along each row with the taps set last. At the left and
/// right edges, `clamp_edges` repeats the edge pixel, else reads zeros.
cudaError_t convolve_rows(const float* in, float* out, Shape shape, int radius, bool clamp_edges,
                          cudaStream_t stream = nullptr);
cudaError_t convolve_rows(const double* in, double* out, Shape shape, int radius, bool clamp_edges,
                          cudaStream_t stream = nullptr);

struct Moments {
  double mean;
  double variance;
};

/// Mean and variance of the pixels of `in`.
cudaError_t image_moments(const float* in, Shape shape, Moments* moments, cudaStream_t stream = nullptr);

/// out[i] = sRGB(exposure * linear(in[i])) for `count` pixels.
cudaError_t tone_map(const float* in, float* out, size_t count, float exposure, cudaStream_t stream = nullptr);

/// out (width/2 x height/2, tightly packed) = the mean of each 2x2 block.
cudaError_t downsample2x(const float* in, Shape shape, float* out, cudaStream_t stream = nullptr);

}  // namespace imgproc
