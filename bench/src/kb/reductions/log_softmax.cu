// LogSoftmax over the rows of a matrix (KernelBench 24: torch.log_softmax(x, dim=1)).
#include <stark/stark.h>

#include <cmath>
#include <cstddef>

#include "bench/kb/reductions.h"
#include "launch.h"

namespace bench::kb {

// Naive: one thread per row, three passes over it (maximum, sum of
// exponentials, then x - max - log(sum)). The rows are 393216 long and there
// are only 256 of them: 256 threads each stream 1.5 MB alone, neighbours
// 1.5 MB apart, so no load coalesces. Outputs are about -13; a float sum of
// 393216 terms moves by ~1e-5 with its order.
STARK_OPTIMIZE("rtol=1e-5", "atol=1e-4")
__global__ void log_softmax_kernel(const float* __restrict__ x, float* __restrict__ y, size_t rows, size_t cols) {
  const size_t step = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t r = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; r < rows; r += step) {
    const float* in = x + r * cols;
    float* out = y + r * cols;
    float m = -INFINITY;
    for (size_t c = 0; c < cols; ++c) m = fmaxf(m, in[c]);
    float sum = 0.0f;
    for (size_t c = 0; c < cols; ++c) sum += expf(in[c] - m);
    const float log_sum = logf(sum);
    for (size_t c = 0; c < cols; ++c) out[c] = (in[c] - m) - log_sum;
  }
}

void kb_log_softmax(int rows, int cols, const float* x, float* y, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  // Small blocks, so that the few rows spread over a few SMs instead of one.
  const int threads = 64;
  log_softmax_kernel<<<(rows + threads - 1) / threads, threads, 0, s>>>(x, y, rows, cols);
  detail::check_launch("kb::kb_log_softmax");
}

}  // namespace bench::kb
