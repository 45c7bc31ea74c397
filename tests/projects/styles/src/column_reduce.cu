// Reductions over a dimension that is not the contiguous one: out[b][j] is
// the sum, mean, maximum (a NaN winning or not) or minimum over i of x[b][i][j], or each position's
// values over the channels normalised by their root mean square. One thread
// per output walks the reduced dimension with a stride; neighbouring threads
// read neighbouring elements.
#include <stark/stark.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cmath>
#include <cstdint>

namespace styles {

// A plain column sum: a thread per column, the matrix indexed directly.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void column_sum_indexed(int rows, int cols, const float* m, float* out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) acc += m[r * cols + c];
    out[c] = acc;
  }
}

// A mean over the middle of three dimensions: the batch is the grid's y,
// sizes unsigned, each batch's plane found once.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-6")
__global__ void column_mean_batched(const float* __restrict__ src, float* __restrict__ dst, unsigned rows,
                                    unsigned cols) {
  const unsigned col = threadIdx.x + blockDim.x * blockIdx.x;
  if (col >= cols) return;
  const float* plane = src + static_cast<size_t>(blockIdx.y) * rows * cols;
  float total = 0.f;
  for (unsigned r = 0; r < rows; r++) total += plane[static_cast<size_t>(r) * cols + col];
  dst[static_cast<size_t>(blockIdx.y) * cols + col] = total / rows;
}

// A maximum over the middle dimension: sizes in a struct, a grid-stride
// loop over the flattened (batch, column) outputs, fmaxf.
struct Dims {
  int outer, reduce, inner;
};

STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void column_max_strided(Dims dims, const float* x, float* out) {
  const long long total = static_cast<long long>(dims.outer) * dims.inner;
  for (long long o = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; o < total;
       o += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long batch = o / dims.inner, j = o % dims.inner;
    float best = x[batch * dims.reduce * dims.inner + j];
    for (int i = 1; i < dims.reduce; ++i) best = fmaxf(best, x[(batch * dims.reduce + i) * dims.inner + j]);
    out[o] = best;
  }
}

// A minimum over the middle dimension, a template over the element type: a
// 2-D thread index (columns on x, batches on y), the minimum written with ?:.
template <typename T>
STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void column_min_templated(const T* in, T* out, int64_t batches, int64_t rows, int64_t cols) {
  const int64_t col = blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t batch = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < cols && batch < batches) {
    T lowest = in[batch * rows * cols + col];
    for (int64_t r = 1; r < rows; ++r) {
      const T v = in[(batch * rows + r) * cols + col];
      lowest = v < lowest ? v : lowest;
    }
    out[batch * cols + col] = lowest;
  }
}

template __global__ void column_min_templated<float>(const float*, float*, int64_t, int64_t, int64_t);

// Each position of an (N, C, H*W) tensor normalised by the root mean square
// of its C channels: a reduction over the channels, then a loop that writes
// every channel.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void channel_rms_norm(int channels, int positions, float eps, const float* x, float* y) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= positions) return;
  const size_t base = static_cast<size_t>(blockIdx.y) * channels * positions + p;
  float squares = 0.0f;
  for (int c = 0; c < channels; ++c) {
    const float v = x[base + static_cast<size_t>(c) * positions];
    squares += v * v;
  }
  const float scale = rsqrtf(squares / channels + eps);
  for (int c = 0; c < channels; ++c)
    y[base + static_cast<size_t>(c) * positions] = x[base + static_cast<size_t>(c) * positions] * scale;
}

// A sum per channel over batches and positions: the partial is carried
// through two nested loops, the outer one dealt out.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-5")
__global__ void channel_sum_nested(int batches, int channels, int positions, const float* x, float* out) {
  const int ch = blockIdx.x * blockDim.x + threadIdx.x;
  if (ch >= channels) return;
  float sum = 0.0f;
  for (int b = 0; b < batches; ++b)
    for (int p = 0; p < positions; ++p) sum += x[(static_cast<size_t>(b) * channels + ch) * positions + p];
  out[ch] = sum;
}

// A column's maximum that a NaN takes over for good, as torch's max keeps
// it: the comparison or-ed with a NaN test, in a template over the element
// type.
template <typename T>
STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void column_max_nan(const T* in, T* out, int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  const T* column = in + col;
  T best = column[0];
  for (int r = 1; r < rows; ++r) {
    const T v = column[static_cast<size_t>(r) * cols];
    if (v > best || isnan(v)) best = v;
  }
  out[col] = best;
}

template __global__ void column_max_nan<float>(const float*, float*, int, int);

// A column's minimum, a NaN winning, with the column walked by a pointer
// stepped a row at a time from the first row's element.
template <typename T>
STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void column_min_walked(int64_t rows, int64_t cols, const T* x, T* out) {
  const int64_t col = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  const T* p = x + col;
  T least = *p;
  for (int64_t r = 1; r < rows; ++r) {
    p += cols;
    const T v = *p;
    if (v < least || v != v) least = v;
  }
  out[col] = least;
}

template __global__ void column_min_walked<float>(int64_t, int64_t, const float*, float*);

// Where a column's maximum is: the first row holding it, a thread per column
// of a batch on a 2-D grid, the place kept beside the value.
STARK_OPTIMIZE()
__global__ void column_argmax(int batches, int rows, int cols, const float* x, int* out) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int batch = blockIdx.y;
  if (col < cols && batch < batches) {
    const float* m = x + static_cast<size_t>(batch) * rows * cols;
    float best = m[col];
    int best_row = 0;
    for (int r = 1; r < rows; ++r) {
      const float v = m[static_cast<size_t>(r) * cols + col];
      if (v > best) {
        best = v;
        best_row = r;
      }
    }
    out[static_cast<size_t>(batch) * cols + col] = best_row;
  }
}

// Where a column's minimum is, as torch.argmin says it (the first NaN wins),
// over a grid-stride loop of flattened outputs, 64-bit places.
STARK_OPTIMIZE()
__global__ void column_argmin_nan(Dims d, const float* x, int64_t* out) {
  const int64_t outputs = static_cast<int64_t>(d.outer) * d.inner;
  for (int64_t o = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; o < outputs;
       o += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t batch = o / d.inner, col = o % d.inner;
    float least = INFINITY;
    int64_t at = 0;
    for (int64_t r = 0; r < d.reduce; ++r) {
      const float v = x[(batch * d.reduce + r) * d.inner + col];
      if (v < least || (isnan(v) && !isnan(least))) {
        least = v;
        at = r;
      }
    }
    out[o] = at;
  }
}

void column_reduce(int batches, int rows, int cols, const float* x, float* out, float* y, cudaStream_t s) {
  column_sum_indexed<<<(cols + 255) / 256, 256, 0, s>>>(rows, cols, x, out);
  column_mean_batched<<<dim3((cols + 127) / 128, batches), 128, 0, s>>>(x, out, rows, cols);
  column_max_strided<<<264, 256, 0, s>>>(Dims{batches, rows, cols}, x, out);
  column_min_templated<float>
      <<<dim3((cols + 31) / 32, (batches + 7) / 8), dim3(32, 8), 0, s>>>(x, out, batches, rows, cols);
  channel_sum_nested<<<(cols + 127) / 128, 128, 0, s>>>(batches, cols, rows, x, out);
  channel_rms_norm<<<dim3((cols + 255) / 256, batches), 256, 0, s>>>(rows, cols, 1e-6f, x, y);
  column_max_nan<float><<<(cols + 127) / 128, 128, 0, s>>>(x, out, rows, cols);
  column_min_walked<float><<<(cols + 255) / 256, 256, 0, s>>>(rows, cols, x, out);
  column_argmax<<<dim3((cols + 255) / 256, batches), 256, 0, s>>>(batches, rows, cols, x, reinterpret_cast<int*>(y));
  column_argmin_nan<<<132, 256, 0, s>>>(Dims{batches, rows, cols}, x, reinterpret_cast<int64_t*>(y));
}

}  // namespace styles
