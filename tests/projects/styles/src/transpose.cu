// out (cols x rows) = transpose of in (rows x cols), row-major.
#include <stark/stark.h>

#include <cuda_runtime.h>

namespace styles {

// A 2-D grid: x along columns, y along rows.
STARK_OPTIMIZE()
__global__ void transpose_2d(int rows, int cols, const float* in, float* out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

// A 1-D grid, the element index split into row and column.
STARK_OPTIMIZE()
__global__ void transpose_flat(const float* __restrict__ src, float* __restrict__ dst, int height, int width) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < height * width) {
    int row = idx / width;
    int col = idx % width;
    dst[col * height + row] = src[idx];
  }
}

// Sizes in a struct, y along columns this time, size_t offsets.
struct Dims {
  int rows, cols;
};

STARK_OPTIMIZE()
__global__ void transpose_struct(Dims d, const float* a, float* at) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // row
  const int j = blockIdx.y * blockDim.y + threadIdx.y;  // column
  if (i >= d.rows || j >= d.cols) return;
  at[(size_t)j * d.rows + i] = a[(size_t)i * d.cols + j];
}

void transpose(int rows, int cols, const float* in, float* out, cudaStream_t s) {
  dim3 block(32, 8);
  transpose_2d<<<dim3((cols + 31) / 32, (rows + 7) / 8), block, 0, s>>>(rows, cols, in, out);
  transpose_flat<<<(rows * cols + 255) / 256, 256, 0, s>>>(in, out, rows, cols);
  transpose_struct<<<dim3((rows + 15) / 16, (cols + 15) / 16), dim3(16, 16), 0, s>>>(Dims{rows, cols}, in, out);
}

}  // namespace styles
