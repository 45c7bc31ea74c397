// Naive kernels of the harness's GPU test project: each is a realistic
// starting point for a faster variant (tests/harness/variants/<kernel>/).
#include "kernels.h"

__constant__ float c_bias[4];

void set_bias(const float* host4) { cudaMemcpyToSymbol(c_bias, host4, 4 * sizeof(float)); }

// Each thread scales 8 consecutive elements: uncoalesced on purpose.
__global__ void scale(int n, float a, const float* x, float* y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 8; ++k) {
    int i = t * 8 + k;
    if (i < n) y[i] = a * x[i];
  }
}

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// One thread per element of C, straight from global memory.
__global__ void matmul(int n, const float* A, const float* B, float* C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

// One partial sum per block of 256 threads, by a shared-memory tree.
__global__ void block_sum(int n, const float* x, float* out) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

__global__ void add_bias(int n, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + c_bias[i & 3];
}

__global__ void fill_span(Span s, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n) s.data[i] = v;
}

template <typename T>
__global__ void negate(int n, const T* x, T* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = -x[i];
}
template __global__ void negate<float>(int, const float*, float*);
template __global__ void negate<double>(int, const double*, double*);

void launch_negate(int n, const float* x, float* y, dim3 grid, dim3 block, cudaStream_t stream) {
  negate<float><<<grid, block, 0, stream>>>(n, x, y);
}
void launch_negate(int n, const double* x, double* y, dim3 grid, dim3 block, cudaStream_t stream) {
  negate<double><<<grid, block, 0, stream>>>(n, x, y);
}

__global__ void never_launched(int n, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.0f;
}
