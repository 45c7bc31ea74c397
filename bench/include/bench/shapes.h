// The benchmark's problem sizes: the one place the tests, the vendor timing
// program and the table writer (through bench_shapes' JSON) take them from.
//
// KernelBench level-1 shapes (KernelBench's own problem sizes) are
// used where every buffer fits STARK's capture caps with room to spare; the
// others are scaled, and `scale` says by how much the element count of the
// largest tensor shrank (1 = KernelBench's own shape). README.md lists them.
#ifndef BENCH_SHAPES_H
#define BENCH_SHAPES_H

#include "bench/problem.h"

namespace bench::shapes {

// ReLU, GELU (KernelBench 19, 26: 4096 x 393216), saxpy: 4096 x 8192.
inline constexpr int kEltRows = 4096, kEltCols = 8192;
inline constexpr int kElt = kEltRows * kEltCols;
// Row sum (sum over the last dimension; no KernelBench problem): 4096 x 8192.
inline constexpr int kRowSumRows = 4096, kRowSumCols = 8192;
// Sum and argmax over dim 1 of B x D1 x D2 (KernelBench 47, 51: 128 x 4096 x 4095).
inline constexpr int kDimB = 2, kDimD1 = 4096, kDimD2 = 4095;
// Softmax over rows (KernelBench 23: 4096 x 393216).
inline constexpr int kSoftmaxRows = 4096, kSoftmaxCols = 8192;
// LayerNorm over the last three dimensions (KernelBench 40: 16 x 64 x 256 x 256).
inline constexpr int kLnBatch = 16, kLnFeatures = 64 * 64 * 64;
// RMSNorm over dim 1, the 64 features (KernelBench 36: 112 x 64 x 512 x 512).
inline constexpr int kRmsBatch = 8, kRmsFeatures = 64, kRmsSpatial = 256 * 256;
// Transpose (no KernelBench problem): 8192 x 4096.
inline constexpr int kTransRows = 8192, kTransCols = 4096;
// Square matmul (KernelBench 1: N = 4096).
inline constexpr int kMatN = 4096;
// Tall-skinny matmul (KernelBench 9: 32768 x 32 times 32 x 32768).
inline constexpr int kTsM = 8192, kTsK = 32;
// Matrix-vector (KernelBench 4: M = 2048, K = 1048576).
inline constexpr int kMvM = 2048, kMvK = 16384;
// conv2d, valid, stride 1, no bias (KernelBench 63: N 16, Cin 16, Cout 128, k 3, 1024 x 1024).
inline constexpr int kC2N = 4, kC2Cin = 16, kC2Cout = 128, kC2K = 3, kC2H = 256, kC2W = 256;
// conv1d, valid, stride 1, no bias (KernelBench 67: N 32, Cin 64, Cout 128, k 3, length 131072).
inline constexpr int kC1N = 4, kC1Cin = 64, kC1Cout = 128, kC1K = 3, kC1L = 65536;
// cumsum along dim 1 (KernelBench 89: 32768 x 32768).
inline constexpr int kScanRows = 4096, kScanCols = 8192;
// Histogram of values in [0, 1) (no KernelBench problem).
inline constexpr int kHistN = 1 << 25, kHistBins = 256;
// SpMV, CSR, 16 to 48 nonzeros per row (no KernelBench problem).
inline constexpr int kSpRows = 1 << 18, kSpCols = 1 << 18, kSpMinRow = 16, kSpMaxRow = 48;
// 5-point stencil (no KernelBench problem): 8192 x 4096.
inline constexpr int kStRows = 8192, kStCols = 4096;

namespace detail {
using bench::detail::d;
using bench::detail::F;
inline constexpr double kSpNnz = d(kSpRows) * (kSpMinRow + kSpMaxRow) / 2;  // expected
inline constexpr double kC2Out = d(kC2N) * kC2Cout * (kC2H - kC2K + 1) * (kC2W - kC2K + 1);
inline constexpr double kC1Out = d(kC1N) * kC1Cout * (kC1L - kC1K + 1);
}  // namespace detail

/// The original suite's rows (KernelBench numbers where a problem is one).
inline constexpr Problem kProblems[] = {
    {"relu", "src/activations.cu:bench::relu_kernel", "4096x8192", "19", 1.0 / 48, 2 * detail::F * kElt, detail::d(kElt),
     {kEltRows, kEltCols}},
    {"gelu", "src/activations.cu:bench::gelu_kernel", "4096x8192", "26", 1.0 / 48, 2 * detail::F * kElt,
     8 * detail::d(kElt),
     {kEltRows, kEltCols}},
    {"saxpy", "src/saxpy.cu:bench::saxpy_kernel", "33554432", "", 1, 3 * detail::F * kElt, 2 * detail::d(kElt),
     {kElt}},
    {"row_sum", "src/reductions.cu:bench::row_sum_kernel", "4096x8192 dim 1", "", 1,
     detail::F * (detail::d(kRowSumRows) * kRowSumCols + kRowSumRows), detail::d(kRowSumRows) * kRowSumCols,
     {kRowSumRows, kRowSumCols}},
    {"dim_sum", "src/reductions.cu:bench::dim_sum_kernel", "2x4096x4095 dim 1", "47", 1.0 / 64,
     detail::F * (detail::d(kDimB) * kDimD1 * kDimD2 + kDimB * kDimD2), detail::d(kDimB) * kDimD1 * kDimD2,
     {kDimB, kDimD1, kDimD2}},
    {"argmax", "src/argmax.cu:bench::argmax_kernel", "2x4096x4095 dim 1", "51", 1.0 / 64,
     detail::F * (detail::d(kDimB) * kDimD1 * kDimD2 + kDimB * kDimD2), detail::d(kDimB) * kDimD1 * kDimD2,
     {kDimB, kDimD1, kDimD2}},
    {"softmax", "src/softmax.cu:bench::softmax_kernel", "4096x8192 dim 1", "23", 1.0 / 48,
     2 * detail::F * kSoftmaxRows * kSoftmaxCols, 4 * detail::d(kSoftmaxRows) * kSoftmaxCols,
     {kSoftmaxRows, kSoftmaxCols}},
    {"layer_norm", "src/layer_norm.cu:bench::layer_norm_kernel", "16x64x64x64 over 64x64x64", "40", 1.0 / 16,
     detail::F * (2 * detail::d(kLnBatch) * kLnFeatures + 2 * kLnFeatures), 8 * detail::d(kLnBatch) * kLnFeatures,
     {kLnBatch, kLnFeatures}},
    {"rms_norm", "src/rms_norm.cu:bench::rms_norm_kernel", "8x64x256x256 over dim 1", "36", 1.0 / 56,
     2 * detail::F * kRmsBatch * kRmsFeatures * kRmsSpatial, 3 * detail::d(kRmsBatch) * kRmsFeatures * kRmsSpatial,
     {kRmsBatch, kRmsFeatures, kRmsSpatial}},
    {"transpose", "src/transpose.cu:bench::transpose_kernel", "8192x4096", "", 1,
     2 * detail::F * kTransRows * kTransCols, 0,
     {kTransRows, kTransCols}},
    {"matmul", "src/matmul.cu:bench::matmul_kernel", "4096x4096x4096", "1", 1, 3 * detail::F * kMatN * kMatN,
     2 * detail::d(kMatN) * kMatN * kMatN,
     {kMatN}},
    {"matmul_tall_skinny", "src/matmul_tall_skinny.cu:bench::matmul_tall_skinny_kernel", "8192x32 * 32x8192", "9",
     1.0 / 16, detail::F * (2 * detail::d(kTsM) * kTsK + detail::d(kTsM) * kTsM),
     2 * detail::d(kTsM) * kTsM * kTsK,
     {kTsM, kTsK}},
    {"matvec", "src/matvec.cu:bench::matvec_kernel", "2048x16384 * 16384", "4", 1.0 / 64,
     detail::F * (detail::d(kMvM) * kMvK + kMvK + kMvM), 2 * detail::d(kMvM) * kMvK,
     {kMvM, kMvK}},
    {"conv2d", "src/conv2d.cu:bench::conv2d_kernel", "N4 Cin16 Cout128 k3 256x256", "63", 1.0 / 64,
     detail::F * (detail::d(kC2N) * kC2Cin * kC2H * kC2W + detail::d(kC2Cout) * kC2Cin * kC2K * kC2K +
                  detail::kC2Out),
     2 * detail::kC2Out * kC2Cin * kC2K * kC2K,
     {kC2N, kC2Cin, kC2Cout, kC2K, kC2H, kC2W}},
    {"conv1d", "src/conv1d.cu:bench::conv1d_kernel", "N4 Cin64 Cout128 k3 L65536", "67", 1.0 / 16,
     detail::F * (detail::d(kC1N) * kC1Cin * kC1L + detail::d(kC1Cout) * kC1Cin * kC1K + detail::kC1Out),
     2 * detail::kC1Out * kC1Cin * kC1K,
     {kC1N, kC1Cin, kC1Cout, kC1K, kC1L}},
    {"cumsum", "src/cumsum.cu:bench::cumsum_kernel", "4096x8192 dim 1", "89", 1.0 / 32,
     2 * detail::F * kScanRows * kScanCols, detail::d(kScanRows) * kScanCols,
     {kScanRows, kScanCols}},
    {"histogram", "src/histogram.cu:bench::histogram_kernel", "33554432 values, 256 bins", "", 1,
     detail::F * (detail::d(kHistN) + kHistBins), 2 * detail::d(kHistN),
     {kHistN, kHistBins}},
    {"spmv", "src/spmv.cu:bench::spmv_csr_kernel", "262144x262144, 32 nnz/row", "", 1,
     detail::F * (2 * detail::kSpNnz + kSpRows + 1 + kSpCols + kSpRows), 2 * detail::kSpNnz,
     {kSpRows, kSpCols, kSpMinRow, kSpMaxRow}},
    {"stencil", "src/stencil.cu:bench::stencil5_kernel", "8192x4096", "", 1, 2 * detail::F * kStRows * kStCols,
     5 * detail::d(kStRows) * kStCols,
     {kStRows, kStCols}},
};

}  // namespace bench::shapes

#endif  // BENCH_SHAPES_H
