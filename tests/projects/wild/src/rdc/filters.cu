// A kernel of a separable-compilation target: it reads __constant__ memory
// and calls a __device__ function that another unit defines.
#include <stark/stark.h>

#include "taps.cuh"

namespace wild {

STARK_OPTIMIZE()
__global__ void smooth(int n, const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int t = 0; t < kTaps; ++t) {
    int j = min(max(i + t - kTaps / 2, 0), n - 1);
    acc += c_taps[t] * in[j];
  }
  out[i] = acc * window(i, n);
}

void smooth_all(int n, const float* in, float* out) { smooth<<<(n + 255) / 256, 256>>>(n, in, out); }

}  // namespace wild
