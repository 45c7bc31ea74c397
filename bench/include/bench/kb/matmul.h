// KernelBench level 1, matmul family (problems 2, 3, 6, 7, 8, 10, 11, 13-18
// and 97, scaled dot-product attention): the launchers of the naive kernels
// (src/kb/matmul/) and the family's rows of the benchmark table.
//
// All tensors are fp32, row-major and contiguous, on the device; every
// launcher launches one kernel asynchronously on stream `s` and throws
// std::runtime_error when the launch fails.
#ifndef BENCH_KB_MATMUL_H
#define BENCH_KB_MATMUL_H

#include "bench/problem.h"

// The runtime's own definition of the stream handle (driver_types.h), so that
// host-only users of the rows (bench_shapes) need no CUDA include path.
typedef struct CUstream_st* cudaStream_t;

namespace bench::kb {

/// c (m x n) = a (m x k) @ b (k x n): torch.matmul(A, B) (KernelBench 2).
void kb_standard_matrix_multiplication(int m, int k, int n, const float* a, const float* b, float* c,
                                       cudaStream_t s = 0);
/// c[z] (m x n) = a[z] (m x k) @ b[z] (k x n) for z < batch: torch.bmm(A, B) (KernelBench 3).
void kb_batched_matrix_multiplication(int batch, int m, int k, int n, const float* a, const float* b, float* c,
                                      cudaStream_t s = 0);
/// c (m x n) = a (m x k) @ b (k x n) with k >> m, n: torch.matmul(A, B) (KernelBench 6).
void kb_matmul_with_large_k_dimension(int m, int k, int n, const float* a, const float* b, float* c,
                                      cudaStream_t s = 0);
/// c (m x n) = a (m x k) @ b (k x n) with k << m, n: torch.matmul(A, B) (KernelBench 7).
void kb_matmul_with_small_k_dimension(int m, int k, int n, const float* a, const float* b, float* c,
                                      cudaStream_t s = 0);
/// c (m x n) = a (m x k) @ b (k x n), sizes no multiple of anything: torch.matmul(A, B) (KernelBench 8).
void kb_matmul_with_irregular_shapes(int m, int k, int n, const float* a, const float* b, float* c,
                                     cudaStream_t s = 0);
/// c (nb x m x l) = a (nb x m x k) @ b (k x l): torch.matmul(A, B) with a 3-D A (KernelBench 10).
void kb_3d_tensor_matrix_multiplication(int nb, int m, int k, int l, const float* a, const float* b, float* c,
                                        cudaStream_t s = 0);
/// c[b][i][j][kk] = sum_l a[b][i][j][l] * w[l][kk]: torch.einsum("bijl,lk->bijk", A, B) (KernelBench 11).
void kb_4d_tensor_matrix_multiplication(int b, int i, int j, int l, int k, const float* a, const float* w, float* c,
                                        cudaStream_t s = 0);
/// c (n x n) = a @ b for symmetric a, b (n x n): torch.matmul(A, B) (KernelBench 13; computes
/// the plain product, symmetry is only what the inputs have).
void kb_matmul_for_symmetric_matrices(int n, const float* a, const float* b, float* c, cudaStream_t s = 0);
/// c = torch.triu(a @ b) for upper-triangular a, b (n x n) (KernelBench 14): c[i][j] = sum over
/// p in [i, j] of a[i][p] * b[p][j] for i <= j, 0 below the diagonal; the lower triangles of a and
/// b are never read.
void kb_matmul_for_upper_triangular_matrices(int n, const float* a, const float* b, float* c, cudaStream_t s = 0);
/// c = torch.tril(a @ b) for lower-triangular a, b (n x n) (KernelBench 15): c[i][j] = sum over
/// p in [j, i] of a[i][p] * b[p][j] for i >= j, 0 above the diagonal; the upper triangles of a and
/// b are never read.
void kb_matmul_for_lower_triangular_matrices(int n, const float* a, const float* b, float* c, cudaStream_t s = 0);
/// c (m x n) = a.T @ b with a (k x m), b (k x n): torch.matmul(A.T, B) (KernelBench 16).
void kb_matmul_with_transposed_a(int m, int k, int n, const float* a, const float* b, float* c, cudaStream_t s = 0);
/// c (m x n) = a @ b.T with a (m x k), b (n x k): torch.matmul(A, B.T) (KernelBench 17).
void kb_matmul_with_transposed_b(int m, int k, int n, const float* a, const float* b, float* c, cudaStream_t s = 0);
/// c (m x n) = a.T @ b.T with a (k x m), b (n x k): torch.matmul(A.T, B.T) (KernelBench 18).
void kb_matmul_with_transposed_both(int m, int k, int n, const float* a, const float* b, float* c,
                                    cudaStream_t s = 0);
/// out = torch.nn.functional.scaled_dot_product_attention(q, k, v) (KernelBench 97): q, k, v, out
/// batch x heads x seq x dim, no mask, no dropout, scale 1 / sqrt(dim):
/// out[r] = softmax_j(q[r] . k[j] / sqrt(dim)) @ v within each (batch, head).
void kb_scaled_dot_product_attention(int batch, int heads, int seq, int dim, const float* q, const float* k,
                                     const float* v, float* out, cudaStream_t s = 0);

}  // namespace bench::kb

namespace bench::kb::matmul {

// Sizes. KernelBench's own where every buffer together stays under 1 GiB and
// the naive kernel under about 100 ms on an H200 (naive fp32 matmul runs at
// about 5 TFLOP/s there); otherwise scaled, keeping the dimension that makes
// the problem what it is.

// 2 (KernelBench: M 2048, K 8192, N 4096): its own shape.
inline constexpr int kStdM = 2048, kStdK = 8192, kStdN = 4096;
// 3 (KernelBench: batch 128, m 512, k 1024, n 2048; B alone is 1 GiB): batch 32.
inline constexpr int kBmmBatch = 32, kBmmM = 512, kBmmK = 1024, kBmmN = 2048;
// 6 (KernelBench: M 256, N 256, K 524288; A and B are 512 MiB each): K 131072, still 512 x M.
inline constexpr int kLargeKM = 256, kLargeKK = 131072, kLargeKN = 256;
// 7 (KernelBench: M 32768, N 32768, K 64; C is 4 GiB): M = N = 8192, K 64 kept.
inline constexpr int kSmallKM = 8192, kSmallKK = 64, kSmallKN = 8192;
// 8 (KernelBench: M 8205, K 2949, N 5921): its own shape.
inline constexpr int kIrrM = 8205, kIrrK = 2949, kIrrN = 5921;
// 10 (KernelBench: N 16, M 1024, K 2048, L 768): its own shape.
inline constexpr int kT3N = 16, kT3M = 1024, kT3K = 2048, kT3L = 768;
// 11 (KernelBench: b 8, i 256, j 512, l 256, k 768; C is 3 GiB): i 32, the contraction l and k kept.
inline constexpr int kT4B = 8, kT4I = 32, kT4J = 512, kT4L = 256, kT4K = 768;
// 13 (KernelBench: N 4096, A and B symmetric): its own shape.
inline constexpr int kSymN = 4096;
// 14 (KernelBench: N 4096, A and B upper triangular): its own shape.
inline constexpr int kUpperN = 4096;
// 15 (KernelBench: M 4096, A and B lower triangular): its own shape.
inline constexpr int kLowerN = 4096;
// 16, 18 (KernelBench: M 2048, K 8192, N 4096, A or both stored transposed): their own shape.
inline constexpr int kTrM = 2048, kTrK = 8192, kTrN = 4096;
// 17 (KernelBench: M 2048, K 8192, N 4096, B stored transposed): M = N = 1024, K 8192 kept.
inline constexpr int kTrBM = 1024, kTrBK = 8192, kTrBN = 1024;
// 97 (KernelBench: batch 32, heads 32, seq 512, dim 1024; Q is 2 GiB): batch 2, heads 4, seq and dim kept.
inline constexpr int kSdpaBatch = 2, kSdpaHeads = 4, kSdpaSeq = 512, kSdpaDim = 1024;

namespace detail {
using bench::detail::d;
using bench::detail::F;
// Multiply-adds of a triangular product: sum over i <= j of (j - i + 1) = n (n + 1) (n + 2) / 6.
inline constexpr double tri_fma(long long n) { return d(n) * d(n + 1) * d(n + 2) / 6; }
// Least traffic of a plain m x k by k x n product: A and B read once, C written once.
inline constexpr double gemm_bytes(long long m, long long k, long long n) {
  return F * (d(m) * d(k) + d(k) * d(n) + d(m) * d(n));
}
inline constexpr double gemm_flops(long long m, long long k, long long n) { return 2 * d(m) * d(k) * d(n); }
inline constexpr long long kSdpaElems = 1LL * kSdpaBatch * kSdpaHeads * kSdpaSeq * kSdpaDim;
}  // namespace detail

/// The family's rows. bytes: inputs read once, outputs written once (only the
/// triangles the triangular products read); flops: 2 per multiply-add (the
/// triangular ones count only the nonzero range; attention counts QK^T and PV,
/// not the softmax).
inline constexpr Problem kProblems[] = {
    {"standard_matrix_multiplication", "src/kb/matmul/standard_matmul.cu:bench::kb::standard_matmul_kernel",
     "2048x8192 * 8192x4096", "2", 1, detail::gemm_bytes(kStdM, kStdK, kStdN), detail::gemm_flops(kStdM, kStdK, kStdN),
     {kStdM, kStdK, kStdN}},
    {"batched_matrix_multiplication", "src/kb/matmul/batched_matmul.cu:bench::kb::batched_matmul_kernel",
     "32 x (512x1024 * 1024x2048)", "3", 1.0 / 4, kBmmBatch * detail::gemm_bytes(kBmmM, kBmmK, kBmmN),
     kBmmBatch * detail::gemm_flops(kBmmM, kBmmK, kBmmN),
     {kBmmBatch, kBmmM, kBmmK, kBmmN}},
    {"matmul_with_large_k_dimension", "src/kb/matmul/large_k_matmul.cu:bench::kb::large_k_matmul_kernel",
     "256x131072 * 131072x256", "6", 1.0 / 4, detail::gemm_bytes(kLargeKM, kLargeKK, kLargeKN),
     detail::gemm_flops(kLargeKM, kLargeKK, kLargeKN),
     {kLargeKM, kLargeKK, kLargeKN}},
    {"matmul_with_small_k_dimension", "src/kb/matmul/small_k_matmul.cu:bench::kb::small_k_matmul_kernel",
     "8192x64 * 64x8192", "7", 1.0 / 16, detail::gemm_bytes(kSmallKM, kSmallKK, kSmallKN),
     detail::gemm_flops(kSmallKM, kSmallKK, kSmallKN),
     {kSmallKM, kSmallKK, kSmallKN}},
    {"matmul_with_irregular_shapes", "src/kb/matmul/irregular_matmul.cu:bench::kb::irregular_matmul_kernel",
     "8205x2949 * 2949x5921", "8", 1, detail::gemm_bytes(kIrrM, kIrrK, kIrrN), detail::gemm_flops(kIrrM, kIrrK, kIrrN),
     {kIrrM, kIrrK, kIrrN}},
    {"3d_tensor_matrix_multiplication", "src/kb/matmul/tensor3d_matmul.cu:bench::kb::tensor3d_matmul_kernel",
     "16x1024x2048 * 2048x768", "10", 1, detail::gemm_bytes(1LL * kT3N * kT3M, kT3K, kT3L),
     detail::gemm_flops(1LL * kT3N * kT3M, kT3K, kT3L),
     {kT3N, kT3M, kT3K, kT3L}},
    {"4d_tensor_matrix_multiplication", "src/kb/matmul/tensor4d_matmul.cu:bench::kb::tensor4d_matmul_kernel",
     "8x32x512x256 * 256x768", "11", 1.0 / 8, detail::gemm_bytes(1LL * kT4B * kT4I * kT4J, kT4L, kT4K),
     detail::gemm_flops(1LL * kT4B * kT4I * kT4J, kT4L, kT4K),
     {kT4B, kT4I, kT4J, kT4L, kT4K}},
    {"matmul_for_symmetric_matrices", "src/kb/matmul/symmetric_matmul.cu:bench::kb::symmetric_matmul_kernel",
     "4096x4096 * 4096x4096, symmetric", "13", 1, detail::gemm_bytes(kSymN, kSymN, kSymN),
     detail::gemm_flops(kSymN, kSymN, kSymN),
     {kSymN}},
    {"matmul_for_upper_triangular_matrices",
     "src/kb/matmul/triangular_matmul.cu:bench::kb::upper_triangular_matmul_kernel", "4096x4096, upper triangular",
     "14", 1, detail::F * (detail::d(kUpperN) * (kUpperN + 1) + detail::d(kUpperN) * kUpperN),
     2 * detail::tri_fma(kUpperN),
     {kUpperN}},
    {"matmul_for_lower_triangular_matrices",
     "src/kb/matmul/triangular_matmul.cu:bench::kb::lower_triangular_matmul_kernel", "4096x4096, lower triangular",
     "15", 1, detail::F * (detail::d(kLowerN) * (kLowerN + 1) + detail::d(kLowerN) * kLowerN),
     2 * detail::tri_fma(kLowerN),
     {kLowerN}},
    {"matmul_with_transposed_a", "src/kb/matmul/transposed_a_matmul.cu:bench::kb::transposed_a_matmul_kernel",
     "(8192x2048).T * 8192x4096", "16", 1, detail::gemm_bytes(kTrM, kTrK, kTrN), detail::gemm_flops(kTrM, kTrK, kTrN),
     {kTrM, kTrK, kTrN}},
    {"matmul_with_transposed_b", "src/kb/matmul/transposed_b_matmul.cu:bench::kb::transposed_b_matmul_kernel",
     "1024x8192 * (1024x8192).T", "17", 1.0 / 4, detail::gemm_bytes(kTrBM, kTrBK, kTrBN),
     detail::gemm_flops(kTrBM, kTrBK, kTrBN),
     {kTrBM, kTrBK, kTrBN}},
    {"matmul_with_transposed_both",
     "src/kb/matmul/transposed_both_matmul.cu:bench::kb::transposed_both_matmul_kernel",
     "(8192x2048).T * (4096x8192).T", "18", 1, detail::gemm_bytes(kTrM, kTrK, kTrN),
     detail::gemm_flops(kTrM, kTrK, kTrN),
     {kTrM, kTrK, kTrN}},
    {"scaled_dot_product_attention", "src/kb/matmul/sdpa.cu:bench::kb::sdpa_kernel",
     "2x4x512x1024 (batch, heads, seq, dim)", "97", 1.0 / 128, 4 * detail::F * detail::kSdpaElems,
     4 * detail::d(detail::kSdpaElems) * kSdpaSeq,
     {kSdpaBatch, kSdpaHeads, kSdpaSeq, kSdpaDim}},
};

}  // namespace bench::kb::matmul

#endif  // BENCH_KB_MATMUL_H
