// bench: naive fp32 CUDA kernels, one per KernelBench level-1 category.
//
// Every function launches one kernel asynchronously on stream `s` (the
// reductions into atomics and the histogram clear their output first). All
// pointers are device pointers, all matrices row-major, sizes are element
// counts. A failed launch throws std::runtime_error.
#ifndef BENCH_KERNELS_H
#define BENCH_KERNELS_H

#include <cuda_runtime.h>

namespace bench {

/// y = max(x, 0).
void relu(int n, const float* x, float* y, cudaStream_t s = 0);
/// y = x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2)) (torch's exact GELU).
void gelu(int n, const float* x, float* y, cudaStream_t s = 0);
/// y = a * x + y.
void saxpy(int n, float a, const float* x, float* y, cudaStream_t s = 0);

/// out[r] = sum_c x[r][c] for an rows x cols matrix.
void row_sum(int rows, int cols, const float* x, float* out, cudaStream_t s = 0);
/// out[b][j] = sum_i x[b][i][j] for a b x d1 x d2 tensor (torch.sum(x, dim=1)).
void dim_sum(int b, int d1, int d2, const float* x, float* out, cudaStream_t s = 0);
/// out[b][j] = the first i maximising x[b][i][j] (torch.argmax(x, dim=1)).
void argmax(int b, int d1, int d2, const float* x, int* out, cudaStream_t s = 0);

/// Row-wise softmax of an rows x cols matrix.
void softmax(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);
/// y[r][f] = (x[r][f] - mean_r) / sqrt(var_r + eps) * gamma[f] + beta[f], over `features` per row.
void layer_norm(int rows, int features, float eps, const float* x, const float* gamma, const float* beta, float* y,
                cudaStream_t s = 0);
/// y[b][f][p] = x[b][f][p] / sqrt(mean_f x[b][f][p]^2 + eps) for a batch x features x spatial tensor.
void rms_norm(int batch, int features, int spatial, float eps, const float* x, float* y, cudaStream_t s = 0);

/// out (cols x rows) = transpose of in (rows x cols).
void transpose(int rows, int cols, const float* in, float* out, cudaStream_t s = 0);
/// c (n x n) = a (n x n) * b (n x n).
void matmul(int n, const float* a, const float* b, float* c, cudaStream_t s = 0);
/// c (m x m) = a (m x k) * b (k x m), k small.
void matmul_tall_skinny(int m, int k, const float* a, const float* b, float* c, cudaStream_t s = 0);
/// y (m) = a (m x k) * x (k).
void matvec(int m, int k, const float* a, const float* x, float* y, cudaStream_t s = 0);

/// Valid 2-D convolution, stride 1, no bias (torch.nn.functional.conv2d):
/// x: n x cin x h x w, w: cout x cin x k x k, y: n x cout x (h-k+1) x (w-k+1).
void conv2d(int n, int cin, int h, int w, int cout, int k, const float* x, const float* wt, float* y,
            cudaStream_t s = 0);
/// Valid 1-D convolution, stride 1, no bias: x: n x cin x len, w: cout x cin x k, y: n x cout x (len-k+1).
void conv1d(int n, int cin, int len, int cout, int k, const float* x, const float* wt, float* y, cudaStream_t s = 0);

/// y[r][c] = x[r][0] + ... + x[r][c] (torch.cumsum(x, dim=1)).
void cumsum(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);
/// bins[b] = number of values v in [0, 1) with floor(v * num_bins) == b; other values are ignored.
void histogram(int n, const float* values, int num_bins, unsigned int* bins, cudaStream_t s = 0);
/// y = A x for A in CSR form (row_ptr: rows + 1 entries, col_idx and vals: row_ptr[rows] entries).
void spmv_csr(int rows, const int* row_ptr, const int* col_idx, const float* vals, const float* x, float* y,
              cudaStream_t s = 0);
/// Five-point average on an rows x cols grid: interior points get 0.2 * (centre + 4 neighbours), the border is copied.
void stencil5(int rows, int cols, const float* in, float* out, cudaStream_t s = 0);

}  // namespace bench

#endif  // BENCH_KERNELS_H
