// L1 and L2 normalisation of the rows of a matrix (KernelBench 38:
// x / torch.mean(torch.abs(x), dim=1, keepdim=True); 39:
// x / torch.norm(x, p=2, dim=1, keepdim=True)).
#include <stark/stark.h>

#include <cmath>
#include <cstddef>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per row, two passes (the mean of |x|, then the division);
// 1024 threads on four SMs, each streaming its 256 KB row alone, neighbours
// 256 KB apart. A float sum over 65535 terms moves by ~1e-5 with its order.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-6")
__global__ void l1_norm_kernel(int rows, int cols, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  size_t base = static_cast<size_t>(row) * cols;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += fabsf(x[base + c]);
  float mean = sum / cols;
  for (int c = 0; c < cols; ++c) y[base + c] = x[base + c] / mean;
}

// Naive, the same plan for the Euclidean norm, written over the element type
// (the launcher instantiates it for float): a pointer walks the row for the
// sum of squares, then every element is divided by its square root.
template <typename T>
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-6")
__global__ void l2_norm_kernel(const T* x, T* y, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    const T* in = x + static_cast<size_t>(row) * cols;
    T* out = y + static_cast<size_t>(row) * cols;
    T sq = T(0);
    for (const T* p = in; p != in + cols; ++p) sq += *p * *p;
    const T norm = sqrt(sq);
    for (int c = 0; c < cols; ++c) out[c] = in[c] / norm;
  }
}

void kb_l1_norm(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  l1_norm_kernel<<<detail::blocks_for(rows), detail::kBlock, 0, s>>>(rows, cols, x, y);
  detail::check_launch("kb::kb_l1_norm");
}

void kb_l2_norm(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  l2_norm_kernel<float><<<(rows + 127) / 128, 128, 0, s>>>(x, y, rows, cols);
  detail::check_launch("kb::kb_l2_norm");
}

}  // namespace bench::kb
