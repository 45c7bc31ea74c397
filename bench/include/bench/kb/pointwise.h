// KernelBench level 1, pointwise family: the elementwise problems (scalar and
// diagonal scaling, the activations) and the losses that reduce two or three
// same-shaped tensors to one scalar. Launchers (src/kb/pointwise/*.cu), sizes
// and the family's problem rows.
//
// Every launcher runs one kernel asynchronously on stream `s`; the losses
// clear their scalar output first (cudaMemsetAsync on `s`) and accumulate
// into it with atomics. All pointers are device pointers, tensors row-major
// and contiguous, sizes are element counts. A failed launch throws
// std::runtime_error.
#ifndef BENCH_KB_POINTWISE_H
#define BENCH_KB_POINTWISE_H

#include <cstdint>

#include "bench/problem.h"

// cudaStream_t exactly as the CUDA runtime declares it, so that host tools
// without the CUDA headers (bench_shapes, through problems.h) can read the
// problem rows; a redeclaration of the same typedef is harmless.
struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;

namespace bench::kb {

/// c = a * scalar for a rows x cols matrix (KernelBench 5: `A * s`, s = 3.14).
void kb_matrix_scalar_multiplication(int64_t rows, int64_t cols, const float* a, float scalar, float* c,
                                     cudaStream_t s = 0);
/// c[i][j] = diag[i] * b[i][j]: `torch.diag(A) @ B` computed as `A.unsqueeze(1) * B` (KernelBench 12),
/// diag: n, b and c: n x m.
void kb_matmul_with_diagonal_matrices(size_t n, size_t m, const float* diag, const float* b, float* c,
                                      cudaStream_t s = 0);

/// y = `F.leaky_relu(x, negative_slope)` (x > 0 ? x : negative_slope * x).
void kb_leaky_relu(int n, const float* x, float negative_slope, float* y, cudaStream_t s = 0);
/// y = `torch.sigmoid(x)` = 1 / (1 + exp(-x)).
void kb_sigmoid(int n, const float* x, float* y, cudaStream_t s = 0);
/// y = `torch.tanh(x)`.
void kb_tanh(size_t n, const float* x, float* y, cudaStream_t s = 0);
/// y = `x * torch.sigmoid(x)` (Swish / SiLU) for a rows x cols tensor.
void kb_swish(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);
/// y = `torch.selu(x)` = scale * (x > 0 ? x : alpha * (exp(x) - 1)), torch's alpha and scale.
void kb_selu(int64_t n, const float* x, float* y, cudaStream_t s = 0);
/// y = `F.hardsigmoid(x)` = min(max(x + 3, 0), 6) / 6.
void kb_hard_sigmoid(long long n, const float* x, float* y, cudaStream_t s = 0);
/// y = `F.softplus(x, beta, threshold)` = x * beta > threshold ? x : log(1 + exp(beta * x)) / beta.
void kb_softplus(int64_t n, const float* x, float beta, float threshold, float* y, cudaStream_t s = 0);
/// y = `x / (1 + torch.abs(x))` for a rows x cols tensor.
void kb_softsign(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);
/// y = `F.elu(x, alpha)` = x > 0 ? x : alpha * (exp(x) - 1).
void kb_elu(int n, const float* x, float alpha, float* y, cudaStream_t s = 0);
/// y = `F.hardtanh(x, min_val, max_val)` = min(max(x, min_val), max_val).
void kb_hard_tanh(long n, const float* x, float min_val, float max_val, float* y, cudaStream_t s = 0);
/// y = `0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))` (MinGPT's new GELU) for a rows x cols tensor.
void kb_min_gpt_new_gelu(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);

/// *loss = `torch.mean((predictions - targets) ** 2)` over a rows x cols pair.
void kb_mse_loss(int rows, int cols, const float* predictions, const float* targets, float* loss,
                 cudaStream_t s = 0);
/// *loss = `F.cross_entropy(logits, targets)`: the mean over the rows of
/// logsumexp(logits[r]) - logits[r][targets[r]]; logits: rows x classes,
/// targets: rows class indices in [0, classes) (torch's int64 labels; a
/// row whose target is out of range adds nothing).
void kb_cross_entropy_loss(int rows, int classes, const float* logits, const int64_t* targets, float* loss,
                           cudaStream_t s = 0);
/// *loss = `F.smooth_l1_loss(predictions, targets, beta=beta)`: the mean over n
/// elements of |d| < beta ? 0.5 d^2 / beta : |d| - 0.5 beta, d = p - t.
void kb_huber_loss(size_t n, const float* predictions, const float* targets, float beta, float* loss,
                   cudaStream_t s = 0);
/// *loss = `F.kl_div(torch.log(predictions), targets, reduction='batchmean')`:
/// sum of t * (log t - log p) over a rows x cols pair (0 where t == 0), divided by rows.
void kb_kl_div_loss(int64_t rows, int64_t cols, const float* predictions, const float* targets, float* loss,
                    cudaStream_t s = 0);
/// *loss = `nn.TripletMarginLoss(margin, p=2, eps)(anchor, positive, negative)`:
/// the mean over rows of max(|a - p + eps|_2 - |a - n + eps|_2 + margin, 0), rows x dim each.
void kb_triplet_margin_loss(int rows, int dim, const float* anchor, const float* positive, const float* negative,
                            float margin, float eps, float* loss, cudaStream_t s = 0);
/// *loss = `torch.mean(torch.clamp(1 - predictions * targets, min=0))` with
/// predictions rows x cols and targets (cols, values +-1) broadcast along the rows.
void kb_hinge_loss(int64_t rows, int64_t cols, const float* predictions, const float* targets, float* loss,
                   cudaStream_t s = 0);

}  // namespace bench::kb

namespace bench::kb::pointwise {

// 5, matrix * scalar (KernelBench: A 65536 x 16384, s = 3.14).
inline constexpr int kScaleRows = 16384, kScaleCols = 4096;
inline constexpr float kScaleValue = 3.14f;
// 12, diag(A) @ B (KernelBench: N = M = 4096).
inline constexpr int kDiagN = 4096, kDiagM = 4096;
// 20, 21, 22, 25, 27-32, the activations (KernelBench: 4096 x 393216).
inline constexpr int kActRows = 4096, kActCols = 8192;
inline constexpr int kAct = kActRows * kActCols;
inline constexpr float kLeakySlope = 0.01f;             // 20: F.leaky_relu's default, KernelBench's
inline constexpr float kSoftplusBeta = 1.0f, kSoftplusThreshold = 20.0f;  // 29: torch's defaults
inline constexpr float kEluAlpha = 1.0f;                // 31: get_init_inputs' alpha
inline constexpr float kHardTanhMin = -1.0f, kHardTanhMax = 1.0f;  // 32
// 88, MinGPT's new GELU (KernelBench: 8192 x 8192).
inline constexpr int kNewGeluRows = 8192, kNewGeluCols = 8192;
// 94, MSE loss (KernelBench: 32768 x 32768, two inputs).
inline constexpr int kMseRows = 2048, kMseCols = 32768;
// 95, cross-entropy (KernelBench: 32768 x 4096 classes, int64 targets).
inline constexpr int kCeRows = 32768, kCeClasses = 4096;
// 96, Huber / smooth L1 loss, beta 1 (KernelBench: 32768 x 32768, two inputs).
inline constexpr int kHuberRows = 2048, kHuberCols = 32768;
inline constexpr float kHuberBeta = 1.0f;
// 98, KL divergence, batchmean (KernelBench: 16384 x 16384, two inputs).
inline constexpr int kKlRows = 4096, kKlCols = 16384;
// 99, triplet margin loss, margin 1, p 2, eps 1e-6 (KernelBench: 32768 x 8192, three inputs).
inline constexpr int kTripletRows = 8192, kTripletDim = 8192;
inline constexpr float kTripletMargin = 1.0f, kTripletEps = 1e-6f;
// 100, hinge loss (KernelBench: 32768 x 32768 predictions, 32768 targets along the last dim).
inline constexpr int kHingeRows = 4096, kHingeCols = 32768;

namespace detail {
using bench::detail::d;
using bench::detail::F;
inline constexpr double kI64 = 8;  // bytes of an int64 label
// An elementwise map over n floats: n read, n written.
inline constexpr double map_bytes(long long n) { return 2 * F * d(n); }
}  // namespace detail

/// The family's rows, by KernelBench number.
inline constexpr Problem kProblems[] = {
    {"matrix_scalar_multiplication", "src/kb/pointwise/matrix_scalar_multiplication.cu:bench::kb::matrix_scalar_kernel",
     "16384x4096", "5", 1.0 / 16, detail::map_bytes(detail::d(kScaleRows) * kScaleCols),
     detail::d(kScaleRows) * kScaleCols,
     {kScaleRows, kScaleCols}},
    {"matmul_with_diagonal_matrices", "src/kb/pointwise/matmul_with_diagonal_matrices.cu:bench::kb::diag_scale_rows_kernel",
     "diag 4096 * 4096x4096", "12", 1, detail::F * (kDiagN + 2 * detail::d(kDiagN) * kDiagM),
     detail::d(kDiagN) * kDiagM,
     {kDiagN, kDiagM}},
    {"leaky_relu", "src/kb/pointwise/leaky_relu.cu:bench::kb::leaky_relu_kernel", "4096x8192", "20", 1.0 / 48,
     detail::map_bytes(kAct), 2 * detail::d(kAct),
     {kActRows, kActCols}},
    {"sigmoid", "src/kb/pointwise/sigmoid.cu:bench::kb::sigmoid_kernel", "4096x8192", "21", 1.0 / 48,
     detail::map_bytes(kAct), 4 * detail::d(kAct),
     {kActRows, kActCols}},
    {"tanh", "src/kb/pointwise/tanh.cu:bench::kb::tanh_kernel", "4096x8192", "22", 1.0 / 48, detail::map_bytes(kAct),
     detail::d(kAct),
     {kActRows, kActCols}},
    {"swish", "src/kb/pointwise/swish.cu:bench::kb::swish_kernel", "4096x8192", "25", 1.0 / 48,
     detail::map_bytes(kAct), 4 * detail::d(kAct),
     {kActRows, kActCols}},
    {"selu", "src/kb/pointwise/selu.cu:bench::kb::selu_kernel", "4096x8192", "27", 1.0 / 48, detail::map_bytes(kAct),
     4 * detail::d(kAct),
     {kActRows, kActCols}},
    {"hard_sigmoid", "src/kb/pointwise/hard_sigmoid.cu:bench::kb::hard_sigmoid_kernel", "4096x8192", "28", 1.0 / 48,
     detail::map_bytes(kAct), 4 * detail::d(kAct),
     {kActRows, kActCols}},
    {"softplus", "src/kb/pointwise/softplus.cu:bench::kb::softplus_kernel", "4096x8192", "29", 1.0 / 48,
     detail::map_bytes(kAct), 4 * detail::d(kAct),
     {kActRows, kActCols}},
    {"softsign", "src/kb/pointwise/softsign.cu:bench::kb::softsign_kernel", "4096x8192", "30", 1.0 / 48,
     detail::map_bytes(kAct), 3 * detail::d(kAct),
     {kActRows, kActCols}},
    {"elu", "src/kb/pointwise/elu.cu:bench::kb::elu_kernel", "4096x8192", "31", 1.0 / 48, detail::map_bytes(kAct),
     3 * detail::d(kAct),
     {kActRows, kActCols}},
    {"hard_tanh", "src/kb/pointwise/hard_tanh.cu:bench::kb::hard_tanh_kernel", "4096x8192", "32", 1.0 / 48,
     detail::map_bytes(kAct), 2 * detail::d(kAct),
     {kActRows, kActCols}},
    {"min_gpt_new_gelu", "src/kb/pointwise/min_gpt_new_gelu.cu:bench::kb::new_gelu_kernel", "8192x8192", "88", 1,
     detail::map_bytes(detail::d(kNewGeluRows) * kNewGeluCols), 9 * detail::d(kNewGeluRows) * kNewGeluCols,
     {kNewGeluRows, kNewGeluCols}},
    {"mse_loss", "src/kb/pointwise/mse_loss.cu:bench::kb::mse_loss_kernel", "2048x32768 (2 inputs)", "94", 1.0 / 16,
     detail::F * (2 * detail::d(kMseRows) * kMseCols + 1), 3 * detail::d(kMseRows) * kMseCols,
     {kMseRows, kMseCols}},
    {"cross_entropy_loss", "src/kb/pointwise/cross_entropy_loss.cu:bench::kb::cross_entropy_kernel",
     "32768x4096 classes", "95", 1,
     detail::F * (detail::d(kCeRows) * kCeClasses + 1) + detail::kI64 * kCeRows, 4 * detail::d(kCeRows) * kCeClasses,
     {kCeRows, kCeClasses}},
    {"huber_loss", "src/kb/pointwise/huber_loss.cu:bench::kb::smooth_l1_kernel", "2048x32768 (2 inputs)", "96",
     1.0 / 16, detail::F * (2 * detail::d(kHuberRows) * kHuberCols + 1), 5 * detail::d(kHuberRows) * kHuberCols,
     {kHuberRows, kHuberCols}},
    {"kl_div_loss", "src/kb/pointwise/kl_div_loss.cu:bench::kb::kl_div_kernel", "4096x16384 (2 inputs)", "98",
     1.0 / 4, detail::F * (2 * detail::d(kKlRows) * kKlCols + 1), 5 * detail::d(kKlRows) * kKlCols,
     {kKlRows, kKlCols}},
    {"triplet_margin_loss", "src/kb/pointwise/triplet_margin_loss.cu:bench::kb::triplet_margin_kernel",
     "8192x8192 (3 inputs)", "99", 1.0 / 4, detail::F * (3 * detail::d(kTripletRows) * kTripletDim + 1),
     8 * detail::d(kTripletRows) * kTripletDim,
     {kTripletRows, kTripletDim}},
    {"hinge_loss", "src/kb/pointwise/hinge_loss.cu:bench::kb::hinge_loss_kernel", "4096x32768, targets 32768", "100",
     1.0 / 8, detail::F * (detail::d(kHingeRows) * kHingeCols + kHingeCols + 1),
     4 * detail::d(kHingeRows) * kHingeCols,
     {kHingeRows, kHingeCols}},
};

}  // namespace bench::kb::pointwise

#endif  // BENCH_KB_POINTWISE_H
