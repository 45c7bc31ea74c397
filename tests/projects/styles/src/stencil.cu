// Five-point average on a rows x cols grid: interior points get the mean of
// themselves and their four neighbours, border points are copied.
#include <stark/stark.h>

#include <cuda_runtime.h>

namespace styles {

// A 2-D grid, indexing.
STARK_OPTIMIZE("rtol=1e-6", "atol=1e-6")
__global__ void stencil_2d(int rows, int cols, const float* in, float* out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= cols) return;
  int i = r * cols + c;
  if (r == 0 || c == 0 || r == rows - 1 || c == cols - 1) {
    out[i] = in[i];
  } else {
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - cols] + in[i + cols]);
  }
}

// A 1-D grid, the point split into row and column, neighbours by name.
STARK_OPTIMIZE("rtol=1e-6", "atol=1e-6")
__global__ void stencil_flat(const float* __restrict__ src, float* __restrict__ dst, int height, int width) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= height * width) return;
  int y = idx / width, x = idx % width;
  if (y > 0 && y < height - 1 && x > 0 && x < width - 1) {
    float north = src[idx - width], south = src[idx + width];
    float west = src[idx - 1], east = src[idx + 1];
    dst[idx] = (src[idx] + north + south + west + east) * 0.2f;
  } else {
    dst[idx] = src[idx];
  }
}

// A struct of sizes, a pitch in elements, a row pointer.
struct Grid2 {
  int rows, cols, pitch;
};

STARK_OPTIMIZE("rtol=1e-6", "atol=1e-6")
__global__ void stencil_pitched(Grid2 g, const float* field, float* next) {
  const int x = threadIdx.x + blockIdx.x * blockDim.x;
  const int y = threadIdx.y + blockIdx.y * blockDim.y;
  if (x >= g.cols || y >= g.rows) return;
  const float* row = field + y * g.pitch;
  float v = row[x];
  if (x > 0 && y > 0 && x + 1 < g.cols && y + 1 < g.rows)
    v = 0.2f * (v + row[x - 1] + row[x + 1] + row[x - g.pitch] + row[x + g.pitch]);
  next[y * g.pitch + x] = v;
}

void stencil(int rows, int cols, const float* in, float* out, cudaStream_t s) {
  dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
  stencil_2d<<<grid, block, 0, s>>>(rows, cols, in, out);
  stencil_flat<<<(rows * cols + 255) / 256, 256, 0, s>>>(in, out, rows, cols);
  stencil_pitched<<<grid, block, 0, s>>>(Grid2{rows, cols, cols}, in, out);
}

}  // namespace styles
