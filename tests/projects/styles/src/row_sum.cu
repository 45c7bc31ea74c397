// out[r] = sum of row r of a rows x cols matrix (row-major).
#include <stark/stark.h>

#include <cuda_runtime.h>

namespace styles {

// One thread per row, indexing the matrix directly.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-5")
__global__ void row_sum_indexed(int rows, int cols, const float* m, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float acc = 0.0f;
    for (int c = 0; c < cols; ++c) acc += m[r * cols + c];
    out[r] = acc;
  }
}

// One thread per row, a row pointer walked to its end.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-5")
__global__ void row_sum_pointer(const float* __restrict__ matrix, float* __restrict__ sums, int num_rows, int num_cols) {
  const int row = threadIdx.x + blockIdx.x * blockDim.x;
  if (row >= num_rows) return;
  const float* p = matrix + static_cast<size_t>(row) * num_cols;
  const float* end = p + num_cols;
  float total = 0.f;
  while (p != end) total += *p++;
  sums[row] = total;
}

// Sizes in a struct, a grid-stride loop over rows, a double accumulator.
struct Shape {
  int rows, cols;
};

STARK_OPTIMIZE("rtol=1e-5", "atol=1e-5")
__global__ void row_sum_strided(Shape shape, const float* data, float* result) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < shape.rows; r += blockDim.x * gridDim.x) {
    double s = 0.0;
    for (int c = 0; c < shape.cols; c++) s += data[(size_t)r * shape.cols + c];
    result[r] = static_cast<float>(s);
  }
}

void row_sum(int rows, int cols, const float* m, float* out, cudaStream_t s) {
  row_sum_indexed<<<(rows + 127) / 128, 128, 0, s>>>(rows, cols, m, out);
  row_sum_pointer<<<(rows + 255) / 256, 256, 0, s>>>(m, out, rows, cols);
  row_sum_strided<<<132, 256, 0, s>>>(Shape{rows, cols}, m, out);
}

}  // namespace styles
