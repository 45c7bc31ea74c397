// Attack: computes in half precision (precision dropped below tolerance).
// expect: rejected correctness
// launch: grid=ceil_div(n, 256); block=256
#include <cuda_fp16.h>
__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __half2float(__hmul(__float2half(a), __float2half(x[i])));
}
