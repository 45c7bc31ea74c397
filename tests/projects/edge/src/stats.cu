#include <cuda_runtime.h>
#include <edge/params.h>
#include <stark/stark.h>

namespace edge {

// Not annotated: the scanner must leave it out.
__global__ void fill(int n, float v, float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}

[[stark::optimize("budget=4", "atol=1e-3")]] __global__ void row_mean(Shape s, const float* in, float* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= s.rows) return;
  float acc = 0;
  for (int c = 0; c < s.cols; ++c) acc += in[r * s.cols + c];
  out[r] = acc / s.cols + s.eps;
}

// Overloaded kernels: ids carry the parameter types.
[[stark::optimize]] __global__ void clamp(int n, float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = fminf(fmaxf(x[i], 0.0f), 1.0f);
}
[[stark::optimize]] __global__ void clamp(int n, double* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = fmin(fmax(x[i], 0.0), 1.0);
}

void means(Shape s, const float* in, float* out, cudaStream_t stream) {
  fill<<<(s.rows + 127) / 128, 128>>>(s.rows, 0.0f, out);
  row_mean<<<(s.rows + 127) / 128, 128, 0, stream>>>(s, in, out);
}

void means_again(Shape s, const float* in, float* out) {
  row_mean<<<s.rows / 64 + 1, 64>>>(s, in, out);
}

void clamp_all(int n, float* xf, double* xd) {
  clamp<<<(n + 255) / 256, 256>>>(n, xf);
  clamp<<<(n + 255) / 256, 256>>>(n, xd);
}

// The launch shape in variables, the grid computed from the block.
void clamp_rows(int rows, int cols, double* xd) {
  const int n = rows * cols;
  dim3 block(256);
  dim3 grid((n + block.x - 1) / block.x);
  clamp<<<grid, block>>>(n, xd);
}

}  // namespace edge
