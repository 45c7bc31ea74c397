// Row softmax, one thread per row: the naive version tests usually start with.
#include <math.h>

#include <stark/stark.h>

STARK_OPTIMIZE("budget=12", "rtol=1e-4")
__global__ void row_softmax(int rows, int cols, const float* in, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* x = in + (size_t)r * cols;
  float* y = out + (size_t)r * cols;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, x[c]);
  float s = 0.f;
  for (int c = 0; c < cols; ++c) s += __expf(x[c] - m);
  for (int c = 0; c < cols; ++c) y[c] = __expf(x[c] - m) / s;
}

void softmax(int rows, int cols, const float* in, float* out) {
  row_softmax<<<(rows + 127) / 128, 128>>>(rows, cols, in, out);
}
