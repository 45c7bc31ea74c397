// Element-wise kernels of the report test project (tests/report/README.md).
#include <stark/stark.h>

[[stark::optimize("budget=30")]]
__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

STARK_OPTIMIZE("budget=6")
__global__ void scale_bias(int n, const float* x, const float* bias, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * 0.5f + bias[i % 64];
}

STARK_OPTIMIZE("skip=true")
__global__ void clamp(int n, float lo, float hi, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fminf(fmaxf(y[i], lo), hi);
}

void run_ops(int n, const float* x, const float* bias, float* y) {
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  scale_bias<<<(n + 255) / 256, 256>>>(n, x, bias, y);
  clamp<<<(n + 255) / 256, 256>>>(n, 0.0f, 1.0f, y);
}
