// KernelBench 28: HardSigmoid.
#include <stark/stark.h>

#include "bench/kb/pointwise.h"
#include "launch.h"

namespace bench::kb {

// Naive: one element per thread; the blocks are laid out on a 2-D grid (so
// more than 2^31 - 1 blocks' worth of elements still fit) and flattened back.
STARK_OPTIMIZE("rtol=1e-6", "atol=1e-7")
__global__ void hard_sigmoid_kernel(long long n, const float* __restrict__ x, float* __restrict__ y) {
  const long long block = static_cast<long long>(blockIdx.y) * gridDim.x + blockIdx.x;
  const long long i = block * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = fminf(fmaxf(x[i] + 3.0f, 0.0f), 6.0f) / 6.0f;
}

void kb_hard_sigmoid(long long n, const float* x, float* y, cudaStream_t s) {
  if (n <= 0) return;
  const long long blocks = (n + detail::kBlock - 1) / detail::kBlock;
  const unsigned gx = blocks < 65536 ? static_cast<unsigned>(blocks) : 65535u;
  const dim3 grid(gx, static_cast<unsigned>((blocks + gx - 1) / gx));
  hard_sigmoid_kernel<<<grid, detail::kBlock, 0, s>>>(n, x, y);
  detail::check_launch("kb_hard_sigmoid");
}

}  // namespace bench::kb
