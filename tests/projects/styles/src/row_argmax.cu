// Where each row's largest (or smallest) element is, one thread per row:
// the value and its place kept together by an if.
#include <stark/stark.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>

namespace styles {

// Seeded with the row's first element, the loop from the second; ties keep
// the first place.
STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void row_argmax_seeded(int rows, int cols, const float* __restrict__ x, int* __restrict__ out) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* row = x + static_cast<size_t>(r) * cols;
  float best = row[0];
  int best_col = 0;
  for (int c = 1; c < cols; ++c) {
    if (row[c] > best) {
      best = row[c];
      best_col = c;
    }
  }
  out[r] = best_col;
}

// torch.argmin's rule (the first NaN wins), 64-bit places, rows in a
// grid-stride loop.
STARK_OPTIMIZE("rtol=0", "atol=0")
__global__ void row_argmin_nan(long long rows, long long cols, const double* x, int64_t* out) {
  for (long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; r < rows;
       r += static_cast<long long>(blockDim.x) * gridDim.x) {
    double lo = INFINITY;
    int64_t at = 0;
    for (long long c = 0; c < cols; ++c) {
      const double v = x[r * cols + c];
      if (v < lo || (isnan(v) && !isnan(lo))) {
        at = c;
        lo = v;
      }
    }
    out[r] = at;
  }
}

void row_argmax(int rows, int cols, const float* x, const double* xd, int* out, int64_t* out64, cudaStream_t s) {
  row_argmax_seeded<<<(rows + 127) / 128, 128, 0, s>>>(rows, cols, x, out);
  row_argmin_nan<<<132, 128, 0, s>>>(rows, cols, xd, out64);
}

}  // namespace styles
