// Attack: rounds the operands to half precision (accumulating in float):
// about 4e-4 relative error, above float's tolerance.
// expect: rejected correctness
#include <cuda_fp16.h>
__global__ void matmul(int n, const float* A, const float* B, float* C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += __half2float(__float2half(A[row * n + k])) * __half2float(__float2half(B[k * n + col]));
  C[row * n + col] = acc;
}
