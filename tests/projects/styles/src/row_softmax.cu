// y[r] = softmax of row r of a rows x cols matrix (row-major).
#include <stark/stark.h>

#include <cuda_runtime.h>

namespace styles {

// One thread per row: max, sum of exponentials, then the quotients.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-7")
__global__ void row_softmax_indexed(int rows, int cols, const float* x, float* y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, x[r * cols + c]);
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += expf(x[r * cols + c] - m);
  for (int c = 0; c < cols; ++c) y[r * cols + c] = expf(x[r * cols + c] - m) / sum;
}

// Row pointers, the exponentials stored then scaled.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-7")
__global__ void row_softmax_pointer(const float* __restrict__ logits, float* __restrict__ probs, int n_rows, int n_cols) {
  int row = threadIdx.x + blockIdx.x * blockDim.x;
  if (row < n_rows) {
    const float* in = logits + (size_t)row * n_cols;
    float* out = probs + (size_t)row * n_cols;
    float top = in[0];
    for (int j = 1; j < n_cols; j++) top = in[j] > top ? in[j] : top;
    float total = 0.f;
    for (int j = 0; j < n_cols; j++) {
      out[j] = __expf(in[j] - top);
      total += out[j];
    }
    const float inv = 1.f / total;
    for (int j = 0; j < n_cols; j++) out[j] *= inv;
  }
}

// Sizes in a struct, a grid-stride loop over rows.
struct Matrix {
  int rows, cols;
};

STARK_OPTIMIZE("rtol=1e-5", "atol=1e-7")
__global__ void row_softmax_strided(Matrix mat, const float* src, float* dst) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < mat.rows; r += gridDim.x * blockDim.x) {
    float peak = src[r * mat.cols];
    for (int c = 1; c < mat.cols; ++c) peak = fmaxf(peak, src[r * mat.cols + c]);
    float denom = 0.0f;
    for (int c = 0; c < mat.cols; ++c) denom += expf(src[r * mat.cols + c] - peak);
    for (int c = 0; c < mat.cols; ++c) dst[r * mat.cols + c] = expf(src[r * mat.cols + c] - peak) / denom;
  }
}

void row_softmax(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  row_softmax_indexed<<<(rows + 127) / 128, 128, 0, s>>>(rows, cols, x, y);
  row_softmax_pointer<<<(rows + 255) / 256, 256, 0, s>>>(x, y, rows, cols);
  row_softmax_strided<<<132, 128, 0, s>>>(Matrix{rows, cols}, x, y);
}

}  // namespace styles
