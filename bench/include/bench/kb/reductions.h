// KernelBench level 1, the reductions family: log-softmax, the norms (batch,
// instance, group, Frobenius, L1, L2), reductions over one dimension (mean,
// max, min, argmin), scans along rows (cumprod, reverse, exclusive and masked
// cumsum) and pooling (max and average, 1-D to 3-D). The launchers (defined
// in src/kb/reductions/*.cu), their sizes and the problem rows.
//
// Every launcher runs asynchronously on stream `s`, takes device pointers to
// contiguous (row-major, NCHW / NCDHW) fp32 tensors and throws
// std::runtime_error when the launch fails.
#ifndef BENCH_KB_REDUCTIONS_H
#define BENCH_KB_REDUCTIONS_H

#include <cstdint>

#include "bench/problem.h"

// cudaStream_t exactly as CUDA's <driver_types.h> declares it, so plain C++
// (tools/bench_shapes.cpp) can read the problem rows without CUDA's headers.
struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;

namespace bench::kb {

/// Output length of a max or average pooling window sweep along one axis
/// (PyTorch's formula with ceil_mode=False).
inline constexpr int pool_out(int in, int kernel, int stride, int padding, int dilation = 1) {
  return (in + 2 * padding - dilation * (kernel - 1) - 1) / stride + 1;
}

/// y = torch.log_softmax(x, dim=1) for a rows x cols matrix.
void kb_log_softmax(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);

/// y = nn.BatchNorm2d(c)(x) in training mode (a fresh module): statistics of
/// each channel over (n, h, w), biased variance, then * gamma[c] + beta[c]
/// (the module's weight and bias: 1 and 0 when fresh). The running
/// statistics are not updated (they are no part of the output).
void kb_batch_norm(int n, int c, int h, int w, float eps, const float* x, const float* gamma, const float* beta,
                   float* y, cudaStream_t s = 0);
/// y = nn.InstanceNorm2d(c)(x): each (sample, channel) plane normalised by its
/// own mean and biased variance; no affine parameters (the default).
void kb_instance_norm(int n, int c, int h, int w, float eps, const float* x, float* y, cudaStream_t s = 0);
/// y = nn.GroupNorm(groups, c)(x): statistics over each group of c / groups
/// channels of a sample, then * gamma[c] + beta[c] (1 and 0 when fresh).
void kb_group_norm(int n, int c, int groups, int h, int w, float eps, const float* x, const float* gamma,
                   const float* beta, float* y, cudaStream_t s = 0);
/// y = x / torch.norm(x, p='fro') over the whole n x c x h x w tensor; `sum_sq`
/// (one float) receives the sum of squares on the way. Two kernels.
void kb_frobenius_norm(int n, int c, int h, int w, const float* x, float* sum_sq, float* y, cudaStream_t s = 0);
/// y = x / torch.mean(torch.abs(x), dim=1, keepdim=True) for a rows x cols matrix.
void kb_l1_norm(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);
/// y = x / torch.norm(x, p=2, dim=1, keepdim=True) for a rows x cols matrix.
void kb_l2_norm(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);

/// out (b x d2) = torch.mean(x, dim=1) for a b x d1 x d2 tensor.
void kb_mean_reduction_over_a_dimension(int b, int d1, int d2, const float* x, float* out, cudaStream_t s = 0);
/// out (b x d2) = torch.max(x, dim=1)[0] for a b x d1 x d2 tensor (NaN propagates).
void kb_max_reduction_over_a_dimension(int b, int d1, int d2, const float* x, float* out, cudaStream_t s = 0);
/// out (b x d2) = torch.argmin(x, dim=1) (int64, the first minimum) for a b x d1 x d2 tensor.
void kb_argmin_over_a_dimension(int b, int d1, int d2, const float* x, int64_t* out, cudaStream_t s = 0);
/// out (b x d2) = torch.min(x, dim=1)[0] for a b x d1 x d2 tensor (NaN propagates).
void kb_min_reduction_over_a_dimension(int b, int d1, int d2, const float* x, float* out, cudaStream_t s = 0);

/// y = torch.cumprod(x, dim=1) for a rows x cols matrix.
void kb_cumprod(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);
/// y = torch.cumsum(x.flip(1), dim=1).flip(1): y[r][c] = x[r][c] + ... + x[r][cols-1].
void kb_cumsum_reverse(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);
/// y[r][0] = 0, y[r][c] = x[r][0] + ... + x[r][c-1] (KernelBench 92's forward:
/// zeros concatenated before torch.cumsum of x without its last column).
void kb_cumsum_exclusive(int rows, int cols, const float* x, float* y, cudaStream_t s = 0);
/// y = torch.cumsum(x * mask, dim=1) for a rows x cols matrix and a bool mask of the same shape.
void kb_masked_cumsum(int rows, int cols, const float* x, const bool* mask, float* y, cudaStream_t s = 0);

/// y = nn.MaxPool1d(kernel, stride, padding, dilation)(x), x: n x c x len,
/// y: n x c x pool_out(len, ...); padding counts as -inf.
void kb_max_pooling_1d(int n, int c, int len, int kernel, int stride, int padding, int dilation, const float* x,
                       float* y, cudaStream_t s = 0);
/// y = nn.MaxPool2d(kernel, stride, padding, dilation)(x), x: n x c x h x w (square windows); n * c <= 65535.
void kb_max_pooling_2d(int n, int c, int h, int w, int kernel, int stride, int padding, int dilation, const float* x,
                       float* y, cudaStream_t s = 0);
/// y = nn.MaxPool3d(kernel, stride, padding, dilation)(x), x: n x c x d x h x w (cubic windows).
void kb_max_pooling_3d(int n, int c, int d, int h, int w, int kernel, int stride, int padding, int dilation,
                       const float* x, float* y, cudaStream_t s = 0);
/// y = nn.AvgPool1d(kernel, stride, padding)(x), x: n x c x len; count_include_pad=True, so
/// every window divides by `kernel`; n * c <= 65535.
void kb_average_pooling_1d(int n, int c, int len, int kernel, int stride, int padding, const float* x, float* y,
                           cudaStream_t s = 0);
/// y = nn.AvgPool2d(kernel, stride, padding)(x), x: n x c x h x w; divides by kernel^2 (count_include_pad=True).
void kb_average_pooling_2d(int n, int c, int h, int w, int kernel, int stride, int padding, const float* x, float* y,
                           cudaStream_t s = 0);
/// y = nn.AvgPool3d(kernel, stride, padding)(x), x: n x c x d x h x w; divides by kernel^3 (count_include_pad=True).
void kb_average_pooling_3d(int n, int c, int d, int h, int w, int kernel, int stride, int padding, const float* x,
                           float* y, cudaStream_t s = 0);

}  // namespace bench::kb

namespace bench::kb::reductions {

// 24 LogSoftmax over dim 1 (KernelBench: 4096 x 393216).
inline constexpr int kLogSoftmaxRows = 256, kLogSoftmaxCols = 393216;
// 33 BatchNorm2d(64), training mode, eps 1e-5 (KernelBench: 64 x 64 x 512 x 512).
inline constexpr int kBnN = 4, kBnC = 64, kBnH = 256, kBnW = 256;
// 34 InstanceNorm2d(64), eps 1e-5 (KernelBench: 112 x 64 x 512 x 512).
inline constexpr int kInN = 4, kInC = 64, kInH = 512, kInW = 512;
// 35 GroupNorm(8 groups, 64 channels), eps 1e-5 (KernelBench: 112 x 64 x 512 x 512).
inline constexpr int kGnN = 112, kGnC = 64, kGnGroups = 8, kGnH = 64, kGnW = 64;
// 37 Frobenius-norm normalisation (KernelBench: 112 x 64 x 512 x 512).
inline constexpr int kFroN = 4, kFroC = 64, kFroH = 512, kFroW = 512;
// 38 L1 norm and 39 L2 norm over dim 1 (KernelBench: 32768 x 65535).
inline constexpr int kLpRows = 1024, kLpCols = 65535;
// 48 mean, 49 max, 52 argmin, 53 min over dim 1 (KernelBench: 128 x 4096 x 4095).
inline constexpr int kDimB = 8, kDimD1 = 4096, kDimD2 = 4095;
// 90 cumprod, 91 reverse, 92 exclusive and 93 masked cumsum along dim 1 (KernelBench: 32768 x 32768).
inline constexpr int kScanRows = 2048, kScanCols = 32768;
// 41 MaxPool1d(8, stride 1, padding 4, dilation 3) (KernelBench: 64 x 192 x 65536).
inline constexpr int kMp1N = 8, kMp1C = 192, kMp1L = 65536, kMp1K = 8, kMp1S = 1, kMp1P = 4, kMp1D = 3;
// 42 MaxPool2d(4, stride 1, padding 1, dilation 1) (KernelBench: 32 x 64 x 512 x 512).
inline constexpr int kMp2N = 4, kMp2C = 64, kMp2H = 512, kMp2W = 512, kMp2K = 4, kMp2S = 1, kMp2P = 1, kMp2D = 1;
// 43 MaxPool3d(3, stride 2, padding 1, dilation 3) (KernelBench: 16 x 32 x 128 x 128 x 128).
inline constexpr int kMp3N = 2, kMp3C = 32, kMp3Dim = 128, kMp3K = 3, kMp3S = 2, kMp3P = 1, kMp3D = 3;
// 44 AvgPool1d(8, stride 1, padding 4) (KernelBench: 64 x 128 x 65536).
inline constexpr int kAp1N = 8, kAp1C = 128, kAp1L = 65536, kAp1K = 8, kAp1S = 1, kAp1P = 4;
// 45 AvgPool2d(11): stride 11 (None), padding 0 (KernelBench: 16 x 64 x 2048 x 2048).
inline constexpr int kAp2N = 2, kAp2C = 16, kAp2H = 2048, kAp2W = 2048, kAp2K = 11, kAp2S = 11, kAp2P = 0;
// 46 AvgPool3d(3, stride 2, padding 1) (KernelBench: 16 x 32 x 128 x 128 x 256).
inline constexpr int kAp3N = 1, kAp3C = 32, kAp3D = 128, kAp3H = 128, kAp3W = 256, kAp3K = 3, kAp3S = 2, kAp3P = 1;

namespace detail {
using bench::detail::d;
using bench::detail::F;
inline constexpr double kLs = d(kLogSoftmaxRows) * kLogSoftmaxCols;
inline constexpr double kBn = d(kBnN) * kBnC * kBnH * kBnW;
inline constexpr double kIn = d(kInN) * kInC * kInH * kInW;
inline constexpr double kGn = d(kGnN) * kGnC * kGnH * kGnW;
inline constexpr double kFro = d(kFroN) * kFroC * kFroH * kFroW;
inline constexpr double kLp = d(kLpRows) * kLpCols;
inline constexpr double kDimIn = d(kDimB) * kDimD1 * kDimD2, kDimOut = d(kDimB) * kDimD2;
inline constexpr double kScan = d(kScanRows) * kScanCols;
inline constexpr double kMp1In = d(kMp1N) * kMp1C * kMp1L;
inline constexpr double kMp1Out = d(kMp1N) * kMp1C * pool_out(kMp1L, kMp1K, kMp1S, kMp1P, kMp1D);
inline constexpr double kMp2In = d(kMp2N) * kMp2C * kMp2H * kMp2W;
inline constexpr double kMp2Out = d(kMp2N) * kMp2C * pool_out(kMp2H, kMp2K, kMp2S, kMp2P, kMp2D) *
                                  pool_out(kMp2W, kMp2K, kMp2S, kMp2P, kMp2D);
inline constexpr double kMp3In = d(kMp3N) * kMp3C * kMp3Dim * kMp3Dim * kMp3Dim;
inline constexpr double kMp3Out = d(kMp3N) * kMp3C * d(pool_out(kMp3Dim, kMp3K, kMp3S, kMp3P, kMp3D)) *
                                  pool_out(kMp3Dim, kMp3K, kMp3S, kMp3P, kMp3D) *
                                  pool_out(kMp3Dim, kMp3K, kMp3S, kMp3P, kMp3D);
inline constexpr double kAp1In = d(kAp1N) * kAp1C * kAp1L;
inline constexpr double kAp1Out = d(kAp1N) * kAp1C * pool_out(kAp1L, kAp1K, kAp1S, kAp1P);
inline constexpr double kAp2In = d(kAp2N) * kAp2C * kAp2H * kAp2W;
inline constexpr double kAp2Out =
    d(kAp2N) * kAp2C * pool_out(kAp2H, kAp2K, kAp2S, kAp2P) * pool_out(kAp2W, kAp2K, kAp2S, kAp2P);
inline constexpr double kAp3In = d(kAp3N) * kAp3C * kAp3D * kAp3H * kAp3W;
inline constexpr double kAp3Out = d(kAp3N) * kAp3C * d(pool_out(kAp3D, kAp3K, kAp3S, kAp3P)) *
                                  pool_out(kAp3H, kAp3K, kAp3S, kAp3P) * pool_out(kAp3W, kAp3K, kAp3S, kAp3P);
}  // namespace detail

/// The family's rows, in KernelBench order. Frobenius norm's row times its
/// first kernel, the sum of squares (the division is a second, unmarked one).
inline constexpr Problem kProblems[] = {
    {"log_softmax", "src/kb/reductions/log_softmax.cu:bench::kb::log_softmax_kernel", "256x393216 dim 1", "24",
     1.0 / 16, 2 * detail::F * detail::kLs, 4 * detail::kLs,
     {kLogSoftmaxRows, kLogSoftmaxCols}},
    {"batch_norm", "src/kb/reductions/batch_norm.cu:bench::kb::batch_norm_kernel", "4x64x256x256, batch statistics",
     "33", 1.0 / 64, detail::F * (2 * detail::kBn + 2 * kBnC), 7 * detail::kBn,
     {kBnN, kBnC, kBnH, kBnW}},
    {"instance_norm", "src/kb/reductions/instance_norm.cu:bench::kb::instance_norm_kernel", "4x64x512x512", "34",
     4.0 / 112, 2 * detail::F * detail::kIn, 7 * detail::kIn,
     {kInN, kInC, kInH, kInW}},
    {"group_norm", "src/kb/reductions/group_norm.cu:bench::kb::group_norm_kernel", "112x64x64x64, 8 groups", "35",
     1.0 / 64, detail::F * (2 * detail::kGn + 2 * kGnC), 7 * detail::kGn,
     {kGnN, kGnC, kGnGroups, kGnH, kGnW}},
    {"frobenius_norm", "src/kb/reductions/frobenius_norm.cu:bench::kb::frobenius_sum_sq_kernel",
     "4x64x512x512 (sum of squares)", "37", 4.0 / 112, detail::F * (detail::kFro + 1), 2 * detail::kFro,
     {kFroN, kFroC, kFroH, kFroW}},
    {"l1_norm", "src/kb/reductions/lp_norm.cu:bench::kb::l1_norm_kernel", "1024x65535 dim 1", "38", 1.0 / 32,
     2 * detail::F * detail::kLp, 3 * detail::kLp,
     {kLpRows, kLpCols}},
    {"l2_norm", "src/kb/reductions/lp_norm.cu:bench::kb::l2_norm_kernel", "1024x65535 dim 1", "39", 1.0 / 32,
     2 * detail::F * detail::kLp, 3 * detail::kLp,
     {kLpRows, kLpCols}},
    {"max_pooling_1d", "src/kb/reductions/max_pool1d.cu:bench::kb::max_pool1d_kernel", "8x192x65536 k8 s1 p4 d3",
     "41", 1.0 / 8, detail::F * (detail::kMp1In + detail::kMp1Out), kMp1K * detail::kMp1Out,
     {kMp1N, kMp1C, kMp1L, kMp1K, kMp1S, kMp1P, kMp1D}},
    {"max_pooling_2d", "src/kb/reductions/max_pool2d.cu:bench::kb::max_pool2d_kernel", "4x64x512x512 k4 s1 p1 d1",
     "42", 1.0 / 8, detail::F * (detail::kMp2In + detail::kMp2Out), kMp2K * kMp2K * detail::kMp2Out,
     {kMp2N, kMp2C, kMp2H, kMp2W, kMp2K, kMp2S, kMp2P, kMp2D}},
    {"max_pooling_3d", "src/kb/reductions/max_pool3d.cu:bench::kb::max_pool3d_kernel", "2x32x128^3 k3 s2 p1 d3", "43",
     1.0 / 8, detail::F * (detail::kMp3In + detail::kMp3Out), kMp3K * kMp3K * kMp3K * detail::kMp3Out,
     {kMp3N, kMp3C, kMp3Dim, kMp3K, kMp3S, kMp3P, kMp3D}},
    {"average_pooling_1d", "src/kb/reductions/avg_pool1d.cu:bench::kb::avg_pool1d_kernel", "8x128x65536 k8 s1 p4",
     "44", 1.0 / 8, detail::F * (detail::kAp1In + detail::kAp1Out), (kAp1K + 1) * detail::kAp1Out,
     {kAp1N, kAp1C, kAp1L, kAp1K, kAp1S, kAp1P}},
    {"average_pooling_2d", "src/kb/reductions/avg_pool2d.cu:bench::kb::avg_pool2d_kernel", "2x16x2048x2048 k11 s11",
     "45", 1.0 / 32, detail::F * (detail::kAp2In + detail::kAp2Out), (kAp2K * kAp2K + 1) * detail::kAp2Out,
     {kAp2N, kAp2C, kAp2H, kAp2W, kAp2K}},
    {"average_pooling_3d", "src/kb/reductions/avg_pool3d.cu:bench::kb::avg_pool3d_kernel",
     "1x32x128x128x256 k3 s2 p1", "46", 1.0 / 16, detail::F * (detail::kAp3In + detail::kAp3Out),
     (kAp3K * kAp3K * kAp3K + 1) * detail::kAp3Out,
     {kAp3N, kAp3C, kAp3D, kAp3H, kAp3W, kAp3K, kAp3S, kAp3P}},
    {"mean_reduction_over_a_dimension", "src/kb/reductions/mean_dim.cu:bench::kb::mean_dim_kernel",
     "8x4096x4095 dim 1", "48", 1.0 / 16, detail::F * (detail::kDimIn + detail::kDimOut), detail::kDimIn,
     {kDimB, kDimD1, kDimD2}},
    {"max_reduction_over_a_dimension", "src/kb/reductions/max_dim.cu:bench::kb::max_dim_kernel", "8x4096x4095 dim 1",
     "49", 1.0 / 16, detail::F * (detail::kDimIn + detail::kDimOut), detail::kDimIn,
     {kDimB, kDimD1, kDimD2}},
    {"argmin_over_a_dimension", "src/kb/reductions/argmin_dim.cu:bench::kb::argmin_dim_kernel", "8x4096x4095 dim 1",
     "52", 1.0 / 16, detail::F * detail::kDimIn + 8 * detail::kDimOut, detail::kDimIn,
     {kDimB, kDimD1, kDimD2}},
    {"min_reduction_over_a_dimension", "src/kb/reductions/min_dim.cu:bench::kb::min_dim_kernel", "8x4096x4095 dim 1",
     "53", 1.0 / 16, detail::F * (detail::kDimIn + detail::kDimOut), detail::kDimIn,
     {kDimB, kDimD1, kDimD2}},
    {"cumprod", "src/kb/reductions/cumprod.cu:bench::kb::cumprod_kernel", "2048x32768 dim 1", "90", 1.0 / 16,
     2 * detail::F * detail::kScan, detail::kScan,
     {kScanRows, kScanCols}},
    {"cumsum_reverse", "src/kb/reductions/cumsum_reverse.cu:bench::kb::cumsum_reverse_kernel", "2048x32768 dim 1",
     "91", 1.0 / 16, 2 * detail::F * detail::kScan, detail::kScan,
     {kScanRows, kScanCols}},
    {"cumsum_exclusive", "src/kb/reductions/cumsum_exclusive.cu:bench::kb::cumsum_exclusive_kernel",
     "2048x32768 dim 1", "92", 1.0 / 16, 2 * detail::F * detail::kScan, detail::kScan,
     {kScanRows, kScanCols}},
    {"masked_cumsum", "src/kb/reductions/masked_cumsum.cu:bench::kb::masked_cumsum_kernel", "2048x32768 dim 1",
     "93", 1.0 / 16, (2 * detail::F + 1) * detail::kScan, 2 * detail::kScan,
     {kScanRows, kScanCols}},
};

}  // namespace bench::kb::reductions

#endif  // BENCH_KB_REDUCTIONS_H
