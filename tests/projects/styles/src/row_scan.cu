// A running value written along each row (prefix sums and products, as
// torch.cumsum and torch.cumprod compute them), one thread per row, in the
// ways projects write it: indexed or through row pointers, inclusive or
// exclusive, left to right or right to left, sizes as int, int64_t or
// struct fields, a grid-stride loop over rows, a template over the element
// type. And two that only look like scans: an update under a condition, and
// a value made from the running value itself.
#include <stark/stark.h>

#include <cuda_runtime.h>

#include <cstdint>

namespace styles {

struct RowShape {
  int rows;
  int cols;
};

// Inclusive, indexed, int sizes, an early return.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void scan_inclusive(int rows, int cols, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) {
    sum += x[(size_t)row * cols + c];
    y[(size_t)row * cols + c] = sum;
  }
}

// Exclusive, row pointers, sizes in a struct, the element read into a local
// first and written out before the update.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void scan_exclusive(RowShape shape, const float* __restrict__ x, float* __restrict__ y) {
  const int row = threadIdx.x + blockIdx.x * blockDim.x;
  if (row < shape.rows) {
    const float* in = x + static_cast<size_t>(row) * shape.cols;
    float* out = y + static_cast<size_t>(row) * shape.cols;
    float before = 0.0f;
    for (int c = 0; c < shape.cols; c++) {
      const float v = in[c];
      out[c] = before;
      before += v;
    }
  }
}

// Right to left, int64_t sizes, a grid-stride loop over rows; the row's
// total also kept.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void scan_reverse(int64_t rows, int64_t cols, const float* x, float* y, float* totals) {
  for (int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; row < rows;
       row += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float acc = 0.0f;
    for (int64_t c = cols - 1; c >= 0; --c) {
      acc += x[row * cols + c];
      y[row * cols + c] = acc;
    }
    totals[row] = acc;
  }
}

// A running product, templated over the element type, a masked factor.
template <typename T>
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-30")
__global__ void scan_product(int rows, int cols, const T* x, const bool* keep, T* y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  T product = T(1);
  for (int c = 0; c < cols; c++) {
    const size_t at = static_cast<size_t>(row) * cols + c;
    product *= keep[at] ? x[at] : T(1);
    y[at] = product;
  }
}

// A weighted running sum over a flat index range the header declares with
// its end (two declarators), sizes as long.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void scan_weighted(long rows, long cols, const float* w, const float* x, float* y) {
  const long row = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float total = 0;
  for (long i = row * cols, last = i + cols; i < last; i++) {
    total += w[i] * x[i];
    y[i] = total;
  }
}

// Not scans a block can split: the update runs only for positive values,
// and the value added depends on the running value.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void scan_conditional(int rows, int cols, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) {
    if (x[row * cols + c] > 0.0f) sum += x[row * cols + c];
    y[row * cols + c] = sum;
  }
}

STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void scan_feedback(int rows, int cols, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float level = 0.0f;
  for (int c = 0; c < cols; ++c) {
    float step = x[row * cols + c] - 0.5f * level;
    level += step;
    y[row * cols + c] = level;
  }
}

void row_scan(int rows, int cols, const float* x, const bool* keep, float* y, double* yd, float* totals,
              cudaStream_t s) {
  const int blocks = (rows + 127) / 128;
  scan_inclusive<<<blocks, 128, 0, s>>>(rows, cols, x, y);
  scan_exclusive<<<blocks, 128, 0, s>>>(RowShape{rows, cols}, x, y);
  scan_reverse<<<blocks, 128, 0, s>>>(rows, cols, x, y, totals);
  scan_product<float><<<blocks, 128, 0, s>>>(rows, cols, x, keep, y);
  scan_product<double><<<blocks, 128, 0, s>>>(rows, cols, reinterpret_cast<const double*>(x), keep, yd);
  scan_weighted<<<blocks, 128, 0, s>>>(rows, cols, x, x, y);
  scan_conditional<<<blocks, 128, 0, s>>>(rows, cols, x, y);
  scan_feedback<<<blocks, 128, 0, s>>>(rows, cols, x, y);
}

}  // namespace styles
