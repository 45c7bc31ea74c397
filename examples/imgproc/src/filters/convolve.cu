// Row convolution with the taps in __constant__ memory. One kernel template,
// instantiated for two element types, two block widths and both edge rules,
// picked at run time from a table of kernel pointers.
#include <stark/stark.h>

#include "common/cuda_util.cuh"
#include "filters/taps.cuh"

namespace imgproc {
namespace detail {

template <typename T, int kBlock, bool kClampEdges>
STARK_OPTIMIZE()
__global__ void __launch_bounds__(kBlock) convolve_rows(const T* __restrict__ in, T* __restrict__ out, Shape shape,
                                                        int radius) {
  const int x = blockIdx.x * kBlock + threadIdx.x;
  const int y = blockIdx.y;
  if (x >= shape.width || y >= shape.height) return;
  const T* row = in + static_cast<size_t>(y) * shape.pitch;
  T acc = 0;
  for (int t = -radius; t <= radius; ++t) {
    int source = x + t;
    if (kClampEdges) {
      source = min(max(source, 0), shape.width - 1);
    } else if (source < 0 || source >= shape.width) {
      continue;
    }
    acc += static_cast<T>(c_taps[t + radius]) * row[source];
  }
  out[static_cast<size_t>(y) * shape.pitch + x] = acc;
}

template <typename T>
using ConvolveKernel = void (*)(const T*, T*, Shape, int);

/// Wide images take the wider blocks.
constexpr int block_for(int width) { return width >= 2048 ? 256 : 128; }

template <typename T>
ConvolveKernel<T> pick(int width, bool clamp_edges) {
  static const ConvolveKernel<T> table[2][2] = {
      {convolve_rows<T, 128, false>, convolve_rows<T, 128, true>},
      {convolve_rows<T, 256, false>, convolve_rows<T, 256, true>}};
  return table[block_for(width) == 256][clamp_edges];
}

template <typename T>
cudaError_t convolve(const T* in, T* out, Shape shape, int radius, bool clamp_edges, cudaStream_t stream) {
  if (radius < 0 || radius > kMaxRadius || shape.width <= 0 || shape.height <= 0) return cudaErrorInvalidValue;
  const int block = block_for(shape.width);
  ConvolveKernel<T> kernel = pick<T>(shape.width, clamp_edges);
  dim3 grid(ceil_div(shape.width, block), shape.height);
  kernel<<<grid, block, 0, stream>>>(in, out, shape, radius);
  return cudaGetLastError();
}

}  // namespace detail

cudaError_t convolve_rows(const float* in, float* out, Shape shape, int radius, bool clamp_edges,
                          cudaStream_t stream) {
  return detail::convolve(in, out, shape, radius, clamp_edges, stream);
}

cudaError_t convolve_rows(const double* in, double* out, Shape shape, int radius, bool clamp_edges,
                          cudaStream_t stream) {
  return detail::convolve(in, out, shape, radius, clamp_edges, stream);
}

}  // namespace imgproc
