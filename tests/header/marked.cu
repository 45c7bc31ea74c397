// A marked kernel as users write it, compiled by tests/CMakeLists.txt with
// every warning an error, with and without relocatable device code.
#include <stark/stark.h>

STARK_OPTIMIZE("budget=4", "rtol=1e-5")
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

STARK_OPTIMIZE() __global__ void negate(float* x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = -x[i];
}

void launch(float* x, int n) {
  scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n);
  negate<<<64, 256>>>(x, n);
}
