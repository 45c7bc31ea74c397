#include <stark/stark.h>

STARK_OPTIMIZE() __global__ void broken(int n, float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x
  if (i < n) x[i] = undeclared_name;
}
