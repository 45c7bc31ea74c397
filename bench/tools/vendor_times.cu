// Times the vendor libraries' answer to each benchmark problem that has one
// (cuBLAS, CUB from CCCL, cuSPARSE) on the shapes of include/bench/shapes.h,
// the way gpu_timer.h does, and prints JSON:
//   {"gpu": ..., "times": {"<problem>": {"library": ..., "us": ...}}, "none": {"<problem>": why}}
// Inputs are uniform in [0, 1) (torch.rand); only the time is of interest.
#include <cublas_v2.h>
#include <cusparse.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/kb/matmul.h"
#include "bench/shapes.h"
#include "gpu_timer.h"

namespace S = bench::shapes;

namespace {

#define BENCH_CHECK_LIB(expr, ok)                                               \
  do {                                                                          \
    if ((expr) != (ok)) {                                                       \
      std::fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #expr); \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)
#define BENCH_CUBLAS(expr) BENCH_CHECK_LIB(expr, CUBLAS_STATUS_SUCCESS)
#define BENCH_CUSPARSE(expr) BENCH_CHECK_LIB(expr, CUSPARSE_STATUS_SUCCESS)

__global__ void fill_uniform(size_t n, unsigned seed, float* x) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    x[i] = (h >> 8) * (1.0f / 16777216.0f);
  }
}

// A device buffer of n floats in [0, 1), freed at exit of the process.
float* uniform(size_t n, unsigned seed) {
  float* p = nullptr;
  BENCH_CUDA(cudaMalloc(&p, n * sizeof(float)));
  fill_uniform<<<1024, 256>>>(n, seed, p);
  BENCH_CUDA(cudaGetLastError());
  return p;
}

template <typename T>
T* device_copy(const std::vector<T>& host) {
  T* p = nullptr;
  BENCH_CUDA(cudaMalloc(&p, host.size() * sizeof(T)));
  BENCH_CUDA(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}

// Runs a CUB algorithm with its two-phase temporary-storage protocol.
struct CubRun {
  void* temp = nullptr;
  size_t bytes = 0;
  template <typename F>
  double time(F algorithm) {
    BENCH_CUDA(algorithm(nullptr, bytes));
    BENCH_CUDA(cudaMalloc(&temp, bytes));
    return mean_us([&] { BENCH_CUDA(algorithm(temp, bytes)); });
  }
  ~CubRun() { cudaFree(temp); }
};

struct RowOf {
  int cols;
  __host__ __device__ int operator()(int i) const { return i / cols; }
};

std::vector<std::string> rows_out;
void report(const char* problem, const char* library, double us) {
  char line[256];
  std::snprintf(line, sizeof line, "\"%s\": {\"library\": \"%s\", \"us\": %.3f}", problem, library, us);
  rows_out.push_back(line);
  std::fprintf(stderr, "vendor_times: %s: %s %.1f us\n", problem, library, us);
}


// KernelBench matmul family (include/bench/kb/matmul.h): cuBLAS sgemm on the
// same shapes, one function per problem. A row-major r x c matrix is a
// column-major c x r one, so row-major C = op(A) op(B) is column-major
// C^T = op(B)^T op(A)^T: every call passes B first.
namespace KM = bench::kb::matmul;

// Times one sgemm: column-major C' (rows x cols) = op_x(X) op_y(Y) with X of
// x_elems floats (leading dimension ldx), Y of y_elems (ldy), inner size depth.
double sgemm_us(cublasHandle_t blas, cublasOperation_t op_x, cublasOperation_t op_y, int rows, int cols, int depth,
                size_t x_elems, int ldx, size_t y_elems, int ldy, unsigned seed) {
  const float one = 1, zero = 0;
  float *x = uniform(x_elems, seed), *y = uniform(y_elems, seed + 1), *c = uniform(size_t(rows) * cols, seed + 2);
  double us = mean_us([&] {
    BENCH_CUBLAS(cublasSgemm(blas, op_x, op_y, rows, cols, depth, &one, x, ldx, y, ldy, &zero, c, rows));
  });
  cudaFree(x), cudaFree(y), cudaFree(c);
  return us;
}

// C (m x n) = A (m x k) B (k x n), all row-major: column-major C^T = B^T A^T, no transposes.
double plain_sgemm_us(cublasHandle_t blas, long long m, long long k, long long n, unsigned seed) {
  return sgemm_us(blas, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(m), int(k), size_t(k) * n, int(n), size_t(m) * k,
                  int(k), seed);
}

void time_standard_matrix_multiplication(cublasHandle_t blas) {
  report("standard_matrix_multiplication", "cuBLAS sgemm",
         plain_sgemm_us(blas, KM::kStdM, KM::kStdK, KM::kStdN, 101));
}
void time_batched_matrix_multiplication(cublasHandle_t blas) {
  const int batch = KM::kBmmBatch, m = KM::kBmmM, k = KM::kBmmK, n = KM::kBmmN;
  const float one = 1, zero = 0;
  float *a = uniform(size_t(batch) * m * k, 104), *b = uniform(size_t(batch) * k * n, 105);
  float* c = uniform(size_t(batch) * m * n, 106);
  report("batched_matrix_multiplication", "cuBLAS sgemmStridedBatched", mean_us([&] {
           BENCH_CUBLAS(cublasSgemmStridedBatched(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n,
                                                  (long long)k * n, a, k, (long long)m * k, &zero, c, n,
                                                  (long long)m * n, batch));
         }));
  cudaFree(a), cudaFree(b), cudaFree(c);
}
void time_matmul_with_large_k_dimension(cublasHandle_t blas) {
  report("matmul_with_large_k_dimension", "cuBLAS sgemm",
         plain_sgemm_us(blas, KM::kLargeKM, KM::kLargeKK, KM::kLargeKN, 107));
}
void time_matmul_with_small_k_dimension(cublasHandle_t blas) {
  report("matmul_with_small_k_dimension", "cuBLAS sgemm",
         plain_sgemm_us(blas, KM::kSmallKM, KM::kSmallKK, KM::kSmallKN, 110));
}
void time_matmul_with_irregular_shapes(cublasHandle_t blas) {
  report("matmul_with_irregular_shapes", "cuBLAS sgemm", plain_sgemm_us(blas, KM::kIrrM, KM::kIrrK, KM::kIrrN, 113));
}
// A (nb x m x k) @ B (k x l) is one (nb m) x k by k x l product.
void time_3d_tensor_matrix_multiplication(cublasHandle_t blas) {
  report("3d_tensor_matrix_multiplication", "cuBLAS sgemm",
         plain_sgemm_us(blas, 1LL * KM::kT3N * KM::kT3M, KM::kT3K, KM::kT3L, 116));
}
// bijl,lk->bijk is one (b i j) x l by l x k product.
void time_4d_tensor_matrix_multiplication(cublasHandle_t blas) {
  report("4d_tensor_matrix_multiplication", "cuBLAS sgemm",
         plain_sgemm_us(blas, 1LL * KM::kT4B * KM::kT4I * KM::kT4J, KM::kT4L, KM::kT4K, 119));
}
void time_matmul_for_symmetric_matrices(cublasHandle_t blas) {
  report("matmul_for_symmetric_matrices", "cuBLAS sgemm", plain_sgemm_us(blas, KM::kSymN, KM::kSymN, KM::kSymN, 122));
}
// The full product, as torch.matmul computes it before triu/tril (no cuBLAS
// routine multiplies two triangular matrices into a triangular one).
void time_matmul_for_upper_triangular_matrices(cublasHandle_t blas) {
  report("matmul_for_upper_triangular_matrices", "cuBLAS sgemm (full product)",
         plain_sgemm_us(blas, KM::kUpperN, KM::kUpperN, KM::kUpperN, 125));
}
void time_matmul_for_lower_triangular_matrices(cublasHandle_t blas) {
  report("matmul_for_lower_triangular_matrices", "cuBLAS sgemm (full product)",
         plain_sgemm_us(blas, KM::kLowerN, KM::kLowerN, KM::kLowerN, 128));
}
// A stored k x m (column-major A^T, ld m), B k x n: C^T = B^T A, so op_T on A.
void time_matmul_with_transposed_a(cublasHandle_t blas) {
  const int m = KM::kTrM, k = KM::kTrK, n = KM::kTrN;
  report("matmul_with_transposed_a", "cuBLAS sgemm",
         sgemm_us(blas, CUBLAS_OP_N, CUBLAS_OP_T, n, m, k, size_t(k) * n, n, size_t(k) * m, m, 131));
}
// A m x k, B stored n x k (column-major B^T, ld k): C^T = B A^T, so op_T on B.
void time_matmul_with_transposed_b(cublasHandle_t blas) {
  const int m = KM::kTrBM, k = KM::kTrBK, n = KM::kTrBN;
  report("matmul_with_transposed_b", "cuBLAS sgemm",
         sgemm_us(blas, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, size_t(n) * k, k, size_t(m) * k, k, 134));
}
// A stored k x m, B stored n x k: C^T = B A, op_T on both.
void time_matmul_with_transposed_both(cublasHandle_t blas) {
  const int m = KM::kTrM, k = KM::kTrK, n = KM::kTrN;
  report("matmul_with_transposed_both", "cuBLAS sgemm",
         sgemm_us(blas, CUBLAS_OP_T, CUBLAS_OP_T, n, m, k, size_t(n) * k, k, size_t(k) * m, m, 137));
}

}  // namespace

int main() {
  cublasHandle_t blas;
  BENCH_CUBLAS(cublasCreate(&blas));
  BENCH_CUBLAS(cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH));  // fp32 sgemm without TF32 (as torch by default)
  const float one = 1, zero = 0, a_scalar = 1.75f;

  {  // saxpy
    float *x = uniform(S::kElt, 1), *y = uniform(S::kElt, 2);
    report("saxpy", "cuBLAS saxpy", mean_us([&] { BENCH_CUBLAS(cublasSaxpy(blas, S::kElt, &a_scalar, x, 1, y, 1)); }));
    cudaFree(x), cudaFree(y);
  }
  {  // transpose: row-major R x C is column-major C x R; geam writes its transpose.
    float *in = uniform(size_t(S::kTransRows) * S::kTransCols, 3), *out = uniform(size_t(S::kTransRows) * S::kTransCols, 4);
    report("transpose", "cuBLAS sgeam", mean_us([&] {
             BENCH_CUBLAS(cublasSgeam(blas, CUBLAS_OP_T, CUBLAS_OP_N, S::kTransRows, S::kTransCols, &one, in,
                                      S::kTransCols, &zero, out, S::kTransRows, out, S::kTransRows));
           }));
    cudaFree(in), cudaFree(out);
  }
  {  // matmul: row-major C = A B is column-major C^T = B^T A^T.
    const int n = S::kMatN;
    float *a = uniform(size_t(n) * n, 5), *b = uniform(size_t(n) * n, 6), *c = uniform(size_t(n) * n, 7);
    report("matmul", "cuBLAS sgemm", mean_us([&] {
             BENCH_CUBLAS(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n));
           }));
    cudaFree(a), cudaFree(b), cudaFree(c);
  }
  {  // tall-skinny: A m x k, B k x m, C m x m.
    const int m = S::kTsM, k = S::kTsK;
    float *a = uniform(size_t(m) * k, 8), *b = uniform(size_t(k) * m, 9), *c = uniform(size_t(m) * m, 10);
    report("matmul_tall_skinny", "cuBLAS sgemm", mean_us([&] {
             BENCH_CUBLAS(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, m, m, k, &one, b, m, a, k, &zero, c, m));
           }));
    cudaFree(a), cudaFree(b), cudaFree(c);
  }
  {  // matvec: row-major A (m x k) is column-major A^T (k x m): y = op_T(A^T) x.
    const int m = S::kMvM, k = S::kMvK;
    float *a = uniform(size_t(m) * k, 11), *x = uniform(k, 12), *y = uniform(m, 13);
    report("matvec", "cuBLAS sgemv", mean_us([&] {
             BENCH_CUBLAS(cublasSgemv(blas, CUBLAS_OP_T, k, m, &one, a, k, x, 1, &zero, y, 1));
           }));
    cudaFree(a), cudaFree(x), cudaFree(y);
  }
  {  // dim_sum: each batch is a column-major d2 x d1 matrix times a vector of ones.
    float* x = uniform(size_t(S::kDimB) * S::kDimD1 * S::kDimD2, 14);
    float* out = uniform(size_t(S::kDimB) * S::kDimD2, 15);
    float* ones = device_copy(std::vector<float>(S::kDimD1, 1.0f));
    report("dim_sum", "cuBLAS sgemv (times ones)", mean_us([&] {
             BENCH_CUBLAS(cublasSgemvStridedBatched(blas, CUBLAS_OP_N, S::kDimD2, S::kDimD1, &one, x, S::kDimD2,
                                                    size_t(S::kDimD1) * S::kDimD2, ones, 1, 0, &zero, out, 1,
                                                    S::kDimD2, S::kDimB));
           }));
    cudaFree(x), cudaFree(out), cudaFree(ones);
  }
  {  // row_sum: one segment per row.
    const int rows = S::kRowSumRows, cols = S::kRowSumCols;
    float *x = uniform(size_t(rows) * cols, 16), *out = uniform(rows, 17);
    std::vector<int> offsets(rows + 1);
    for (int r = 0; r <= rows; ++r) offsets[r] = r * cols;
    int* d_off = device_copy(offsets);
    CubRun cub_run;
    report("row_sum", "CUB DeviceSegmentedReduce::Sum", cub_run.time([&](void* t, size_t& b) {
             return cub::DeviceSegmentedReduce::Sum(t, b, x, out, rows, d_off, d_off + 1);
           }));
    cudaFree(x), cudaFree(out), cudaFree(d_off);
  }
  {  // cumsum: a scan by key, the key of element i being its row.
    const int rows = S::kScanRows, cols = S::kScanCols;
    float *x = uniform(size_t(rows) * cols, 18), *y = uniform(size_t(rows) * cols, 19);
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), RowOf{cols});
    CubRun cub_run;
    report("cumsum", "CUB DeviceScan::InclusiveSumByKey", cub_run.time([&](void* t, size_t& b) {
             return cub::DeviceScan::InclusiveSumByKey(t, b, keys, x, y, rows * cols);
           }));
    cudaFree(x), cudaFree(y);
  }
  {  // histogram: equal bins over [0, 1).
    float* values = uniform(S::kHistN, 20);
    unsigned int* bins = nullptr;
    BENCH_CUDA(cudaMalloc(&bins, S::kHistBins * sizeof(unsigned int)));
    CubRun cub_run;
    report("histogram", "CUB DeviceHistogram::HistogramEven", cub_run.time([&](void* t, size_t& b) {
             return cub::DeviceHistogram::HistogramEven(t, b, values, bins, S::kHistBins + 1, 0.0f, 1.0f, S::kHistN);
           }));
    cudaFree(values), cudaFree(bins);
  }
  {  // spmv: the benchmark's row-length distribution, random columns.
    std::vector<int> row_ptr(S::kSpRows + 1, 0);
    unsigned state = 12345;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    for (int r = 0; r < S::kSpRows; ++r)
      row_ptr[r + 1] = row_ptr[r] + S::kSpMinRow + static_cast<int>(next() >> 8) % (S::kSpMaxRow - S::kSpMinRow + 1);
    std::vector<int> cols(row_ptr.back());
    for (int& c : cols) c = static_cast<int>((next() >> 8) % S::kSpCols);
    int *d_rows = device_copy(row_ptr), *d_cols = device_copy(cols);
    float *vals = uniform(cols.size(), 21), *x = uniform(S::kSpCols, 22), *y = uniform(S::kSpRows, 23);
    cusparseHandle_t sp;
    BENCH_CUSPARSE(cusparseCreate(&sp));
    cusparseSpMatDescr_t mat;
    cusparseDnVecDescr_t vx, vy;
    BENCH_CUSPARSE(cusparseCreateCsr(&mat, S::kSpRows, S::kSpCols, int64_t(cols.size()), d_rows, d_cols, vals,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    BENCH_CUSPARSE(cusparseCreateDnVec(&vx, S::kSpCols, x, CUDA_R_32F));
    BENCH_CUSPARSE(cusparseCreateDnVec(&vy, S::kSpRows, y, CUDA_R_32F));
    size_t bytes = 0;
    BENCH_CUSPARSE(cusparseSpMV_bufferSize(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, CUDA_R_32F,
                                           CUSPARSE_SPMV_CSR_ALG1, &bytes));
    void* buffer = nullptr;
    BENCH_CUDA(cudaMalloc(&buffer, bytes + 1));
    report("spmv", "cuSPARSE SpMV CSR", mean_us([&] {
             BENCH_CUSPARSE(cusparseSpMV(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, CUDA_R_32F,
                                         CUSPARSE_SPMV_CSR_ALG1, buffer));
           }));
    cusparseDestroySpMat(mat), cusparseDestroyDnVec(vx), cusparseDestroyDnVec(vy), cusparseDestroy(sp);
    cudaFree(buffer), cudaFree(d_rows), cudaFree(d_cols), cudaFree(vals), cudaFree(x), cudaFree(y);
  }
  // KernelBench matmul family.
  time_standard_matrix_multiplication(blas);
  time_batched_matrix_multiplication(blas);
  time_matmul_with_large_k_dimension(blas);
  time_matmul_with_small_k_dimension(blas);
  time_matmul_with_irregular_shapes(blas);
  time_3d_tensor_matrix_multiplication(blas);
  time_4d_tensor_matrix_multiplication(blas);
  time_matmul_for_symmetric_matrices(blas);
  time_matmul_for_upper_triangular_matrices(blas);
  time_matmul_for_lower_triangular_matrices(blas);
  time_matmul_with_transposed_a(blas);
  time_matmul_with_transposed_b(blas);
  time_matmul_with_transposed_both(blas);
  cublasDestroy(blas);

  std::printf("{\"schema\": \"stark.bench-vendor/1\", \"gpu\": \"%s\", \"times\": {\n  ", gpu_name());
  for (size_t i = 0; i < rows_out.size(); ++i) std::printf("%s%s", i ? ",\n  " : "", rows_out[i].c_str());
  // Problems without a vendor routine here, and why (make_table.py prints "-").
  std::printf("},\n \"none\": {\"relu\": \"elementwise: torch is the reference\", \"gelu\": \"elementwise: torch is "
              "the reference\", \"argmax\": \"no CUB/cuBLAS routine for a strided dim-1 argmax\", "
              "\"softmax\": \"cuDNN not used\", \"layer_norm\": \"cuDNN not used\", \"rms_norm\": \"cuDNN not used\", "
              "\"conv2d\": \"cuDNN not used: torch eager runs cuDNN\", \"conv1d\": \"cuDNN not used: torch eager runs "
              "cuDNN\", \"stencil\": \"no vendor routine\", "
              "\"scaled_dot_product_attention\": \"torch eager's SDPA is the reference\"}}\n");
  return 0;
}
