// nnops: naive CUDA kernels for a few neural-network building blocks.
//
// Every function launches one kernel (reduce_sum and histogram also clear
// their output first) asynchronously on stream `s`. All pointers are device
// pointers; sizes are element counts. A failed launch throws
// std::runtime_error; errors during execution surface at the next
// synchronizing CUDA call.
#ifndef NNOPS_NNOPS_H
#define NNOPS_NNOPS_H

#include <cuda_runtime.h>

namespace nnops {

/// x[i] = value for i < n.
void fill(int n, float value, float* x, cudaStream_t s = 0);

/// y = a * x + y.
void saxpy(int n, float a, const float* x, float* y, cudaStream_t s = 0);

/// y += x (the saxpy kernel with a = 1, launched through cudaLaunchKernel).
void add_inplace(int n, const float* x, float* y, cudaStream_t s = 0);

/// y = max(x, 0), elementwise.
void relu(int n, const float* x, float* y, cudaStream_t s = 0);
void relu(int n, const double* x, double* y, cudaStream_t s = 0);

/// *out = x[0] + ... + x[n-1].
void reduce_sum(int n, const float* x, float* out, cudaStream_t s = 0);

/// Row-wise softmax of a row-major rows x cols matrix: y[r][c] = exp(x[r][c]) / sum_c' exp(x[r][c']).
void softmax_rows(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);

/// out (cols x rows) = transpose of in (rows x cols), both row-major.
void transpose(int rows, int cols, const float* in, float* out, cudaStream_t s = 0);

/// c (m x n) = a (m x k) * b (k x n), all row-major fp32.
void matmul(int m, int n, int k, const float* a, const float* b, float* c, cudaStream_t s = 0);

/// Shape of a layer normalization over the last dimension (passed to the kernel by value).
struct LayerNormShape {
  int rows;
  int cols;
  float eps;
};

/// y[r][c] = (x[r][c] - mean_r) / sqrt(var_r + eps) * gamma[c] + beta[c], row-major.
void layer_norm(LayerNormShape shape, const float* x, const float* gamma, const float* beta, float* y,
                cudaStream_t s = 0);

/// bins[b] = number of i with values[i] == b, for b < num_bins; out-of-range values are ignored.
void histogram(int n, const int* values, int num_bins, unsigned int* bins, cudaStream_t s = 0);

}  // namespace nnops

#endif  // NNOPS_NNOPS_H
