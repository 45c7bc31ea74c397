// Statistics over a channel's planes, one thread per channel or per sample:
// the row is not one loop but a nest (samples, then a plane; channels, then
// a plane), as normalisation layers are written.
#include <stark/stark.h>

#include <cuda_runtime.h>

namespace styles {

struct Nchw {
  int n, c, h, w;
};

// Batch statistics: a thread per channel walks every sample's plane of its
// channel, in double, and writes the channel's mean and biased variance.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-6")
__global__ void channel_mean_var(Nchw shape, const float* __restrict__ x, float* __restrict__ mean,
                                 float* __restrict__ var) {
  const int ch = blockIdx.x * blockDim.x + threadIdx.x;
  if (ch >= shape.c) return;
  const int plane = shape.h * shape.w;
  double sum = 0.0, sum_sq = 0.0;
  for (int s = 0; s < shape.n; ++s)
    for (int p = 0; p < plane; ++p) {
      const double v = x[(static_cast<size_t>(s) * shape.c + ch) * plane + p];
      sum += v;
      sum_sq += v * v;
    }
  const double count = static_cast<double>(shape.n) * plane;
  const double m = sum / count;
  mean[ch] = static_cast<float>(m);
  var[ch] = static_cast<float>(sum_sq / count - m * m);
}

// Each sample's channels centred on their own mean, one thread per sample in
// a grid-stride loop: the mean is a value per channel (declared inside the
// channel loop), used by the next loop over the same plane.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void center_planes(int samples, int channels, int plane, const float* in, float* out) {
  for (int s = blockIdx.x * blockDim.x + threadIdx.x; s < samples; s += blockDim.x * gridDim.x) {
    for (int k = 0; k < channels; ++k) {
      const float* src = in + (static_cast<size_t>(s) * channels + k) * plane;
      float* dst = out + (static_cast<size_t>(s) * channels + k) * plane;
      float total = 0.0f;
      for (int p = 0; p < plane; ++p) total += src[p];
      const float mu = total / plane;
      for (int p = 0; p < plane; ++p) dst[p] = src[p] - mu;
    }
  }
}

// The same accumulator carried through two loops (a sum over two inputs):
// one thread's part of the first loop's total is already the whole total
// when block-per-row combines, so it must not split these loops.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-5")
__global__ void row_sum_of_two(int rows, int cols, const float* a, const float* b, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c) s += a[static_cast<size_t>(r) * cols + c];
  for (int c = 0; c < cols; ++c) s += b[static_cast<size_t>(r) * cols + c];
  out[r] = s;
}

// A sum per (sample, channel) written inside the sample loop: every thread
// would write it, so no block splits the plane loop here.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-5")
__global__ void plane_sums(int n, int c, int plane, const float* x, float* sums) {
  int ch = blockIdx.x * blockDim.x + threadIdx.x;
  if (ch >= c) return;
  for (int s = 0; s < n; ++s) {
    float t = 0.0f;
    for (int p = 0; p < plane; ++p) t += x[(static_cast<size_t>(s) * c + ch) * plane + p];
    sums[s * c + ch] = t;
  }
}

// Instance normalisation with Welford's update counted by a counter of its
// own, in double, the new mean's deviation a second local: one thread per
// (sample, channel) plane.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void plane_welford_norm(int planes, int hw, float eps, const float* __restrict__ x, float* __restrict__ y) {
  const int id = threadIdx.x + blockDim.x * blockIdx.x;
  if (id >= planes) return;
  const float* src = x + static_cast<size_t>(id) * hw;
  float* dst = y + static_cast<size_t>(id) * hw;
  double n = 0.0, mean = 0.0, m2 = 0.0;
  for (int i = 0; i < hw; i++) {
    const double v = src[i];
    n += 1.0;
    const double d = v - mean;
    mean += d / n;
    const double d2 = v - mean;
    m2 += d2 * d;
  }
  const float inv_std = rsqrtf(static_cast<float>(m2 / n) + eps);
  const float mu = static_cast<float>(mean);
  for (int i = 0; i < hw; i++) dst[i] = (src[i] - mu) * inv_std;
}

// Batch statistics by Welford over every sample's plane of a channel: the
// counter runs through the whole nest.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void channel_welford(Nchw shape, const float* x, float* mean_out, float* var_out) {
  const int ch = blockIdx.x * blockDim.x + threadIdx.x;
  if (ch >= shape.c) return;
  const int plane = shape.h * shape.w;
  long long count = 0;
  float mean = 0.0f, m2 = 0.0f;
  for (int s = 0; s < shape.n; ++s) {
    const float* p = x + (static_cast<size_t>(s) * shape.c + ch) * plane;
    for (int i = 0; i < plane; ++i) {
      ++count;
      const float delta = p[i] - mean;
      mean += delta / static_cast<float>(count);
      m2 += delta * (p[i] - mean);
    }
  }
  mean_out[ch] = mean;
  var_out[ch] = m2 / static_cast<float>(count);
}

// One thread per (sample, channel) plane in a grid-stride loop whose bound
// is a local the kernel computes from the shape.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-5")
__global__ void plane_means(Nchw shape, const float* x, float* means) {
  const int planes = shape.n * shape.c;
  const int hw = shape.h * shape.w;
  for (int id = blockIdx.x * blockDim.x + threadIdx.x; id < planes; id += gridDim.x * blockDim.x) {
    float s = 0.0f;
    for (int i = 0; i < hw; ++i) s += x[static_cast<size_t>(id) * hw + i];
    means[id] = s / hw;
  }
}

void channel_norm(Nchw shape, const float* x, float* y, float* stats, cudaStream_t s) {
  channel_mean_var<<<(shape.c + 63) / 64, 64, 0, s>>>(shape, x, stats, stats + shape.c);
  center_planes<<<(shape.n + 31) / 32, 32, 0, s>>>(shape.n, shape.c, shape.h * shape.w, x, y);
  row_sum_of_two<<<(shape.n + 127) / 128, 128, 0, s>>>(shape.n, shape.c, x, x, stats);
  plane_sums<<<(shape.c + 63) / 64, 64, 0, s>>>(shape.n, shape.c, shape.h * shape.w, x, stats);
  plane_welford_norm<<<(shape.n * shape.c + 31) / 32, 32, 0, s>>>(shape.n * shape.c, shape.h * shape.w, 1e-5f, x, y);
  channel_welford<<<(shape.c + 63) / 64, 64, 0, s>>>(shape, x, stats, stats + shape.c);
  plane_means<<<(shape.n * shape.c + 127) / 128, 128, 0, s>>>(shape, x, stats);
}

}  // namespace styles
