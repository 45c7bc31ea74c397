// Naive matrix transpose, a template over the element type.
#include <stark/stark.h>

template <typename T>
STARK_OPTIMIZE("budget=10")
__global__ void transpose(int rows, int cols, const T* in, T* out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose_f32(int rows, int cols, const float* in, float* out) {
  dim3 block(32, 8);
  dim3 grid((cols + 31) / 32, (rows + 7) / 8);
  transpose<float><<<grid, block>>>(rows, cols, in, out);
}
