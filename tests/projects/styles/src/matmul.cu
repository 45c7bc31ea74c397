// c (m x n) = a (m x k) * b (k x n), row-major.
#include <stark/stark.h>

#include <cuda_runtime.h>

namespace styles {

// A 2-D grid, one output per thread.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void matmul_2d(int m, int n, int k, const float* a, const float* b, float* c) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int p = 0; p < k; ++p) sum += a[row * k + p] * b[p * n + col];
    c[row * n + col] = sum;
  }
}

// A 1-D grid over the outputs, fmaf, restrict.
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void matmul_flat(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                            int N, int K) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= M * N) return;
  int i = idx / N, j = idx % N;
  float acc = 0.f;
  for (int t = 0; t < K; t++) acc = fmaf(A[i * K + t], B[t * N + j], acc);
  C[idx] = acc;
}

// Sizes in a struct, a templated element type, pointers stepped along the row and the column.
struct GemmShape {
  int m, n, k;
};

template <typename T>
STARK_OPTIMIZE("rtol=1e-4", "atol=1e-4")
__global__ void matmul_templated(GemmShape s, const T* a, const T* b, T* c) {
  const int col = threadIdx.x + blockIdx.x * blockDim.x;
  const int row = threadIdx.y + blockIdx.y * blockDim.y;
  if (row >= s.m || col >= s.n) return;
  const T* pa = a + row * s.k;
  const T* pb = b + col;
  T total = 0;
  for (int p = 0; p < s.k; ++p, pb += s.n) total += pa[p] * *pb;
  c[row * s.n + col] = total;
}

void matmul(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t s) {
  dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
  matmul_2d<<<grid, block, 0, s>>>(m, n, k, a, b, c);
  matmul_flat<<<(m * n + 255) / 256, 256, 0, s>>>(a, b, c, m, n, k);
  matmul_templated<float><<<grid, block, 0, s>>>(GemmShape{m, n, k}, a, b, c);
}

}  // namespace styles
