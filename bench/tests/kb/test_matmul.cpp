// KernelBench matmul family (include/bench/kb/matmul.h): problems 2, 3, 6, 7,
// 8, 10, 11, 13-18 against double-precision dot products on the CPU (sampled
// entries at the benchmark shapes, every entry at the odd ones).
//
// Inputs are uniform in [-1, 1), not torch.rand's [0, 1): with positive data
// the relative error of a long dot product in TF32 shrinks like 1 / sqrt(k)
// and cannot be told from fp32 rounding, with signed data it cannot hide.
// The bound of each entry is 10 u sqrt(sum_p S_p^2) + 10 u sqrt(sum_p t_p^2)
// (u = 2^-24, S_p the partial sums, t_p the products): the rounding of a float
// sum in order p, as the naive kernels add, is about u / sqrt(3) times the
// first root, so this is some 17 standard deviations; TF32's error (about
// 4e-4 sqrt(sum t_p^2)) exceeds it for every k used here.
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "../check.h"
#include "bench/kb/matmul.h"

namespace bench_test {
namespace {

namespace K = bench::kb;
namespace S = bench::kb::matmul;
using Entries = std::vector<std::pair<size_t, size_t>>;

// `count` entries of an m x n result spread deterministically, the four corners among them.
Entries sample(size_t m, size_t n, uint64_t seed, size_t count = 4096) {
  Entries e = {{0, 0}, {0, n - 1}, {m - 1, 0}, {m - 1, n - 1}};
  for (uint64_t s = 0; e.size() < count; ++s)
    e.emplace_back(static_cast<size_t>(unit(seed, 2 * s) * m), static_cast<size_t>(unit(seed, 2 * s + 1) * n));
  return e;
}

Entries every(size_t m, size_t n) {
  Entries e;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) e.emplace_back(i, j);
  return e;
}

// Checks got(i, j) against sum over p in [range(i, j).first, range(i, j).second)
// of term(i, j, p) (a product of two floats, in double) at every entry; an
// empty range must give exactly 0.
template <typename Got, typename Term, typename Range>
void check_product(const std::string& what, const Entries& entries, Got got, Term term, Range range) {
  std::vector<double> ref(entries.size()), tol(entries.size());
  parallel_for(entries.size(), [&](size_t begin, size_t end) {
    for (size_t e = begin; e < end; ++e) {
      auto [i, j] = entries[e];
      auto [lo, hi] = range(i, j);
      double sum = 0, partial2 = 0, terms2 = 0;
      for (size_t p = lo; p < hi; ++p) {
        double t = term(i, j, p);
        sum += t;
        partial2 += sum * sum;
        terms2 += t * t;
      }
      ref[e] = sum;
      tol[e] = 10 * 0x1p-24 * (std::sqrt(partial2) + std::sqrt(terms2)) + 1e-30;
    }
  });
  expect_all_close(
      what, entries.size(), [&](size_t e) { return got(entries[e].first, entries[e].second); },
      [&](size_t e) { return ref[e]; }, [&](size_t e) { return tol[e]; });
}

auto full(size_t k) {
  return [k](size_t, size_t) { return std::pair<size_t, size_t>{0, k}; };
}

std::vector<float> signed_data(size_t n, uint64_t seed) { return uniform<float>(n, -1, 1, seed); }

std::string dims(std::initializer_list<long long> v) {
  std::string s;
  for (long long x : v) s += (s.empty() ? "" : "x") + std::to_string(x);
  return s;
}

// The plain m x k by k x n product of the problems without a twist (2, 6, 7, 8).
template <typename Launch>
void check_plain(const char* name, Launch launch, int m, int k, int n, bool all, uint64_t seed) {
  std::vector<float> a = signed_data(size_t(m) * k, seed), b = signed_data(size_t(k) * n, seed + 1);
  DeviceBuffer<float> da(a), db(b), dc(size_t(m) * n);
  launch(m, k, n, da.get(), db.get(), dc.get(), cudaStream_t{});
  std::vector<float> c = dc.download();
  check_product(
      std::string(name) + " " + dims({m, k, n}), all ? every(m, n) : sample(m, n, seed + 2),
      [&](size_t i, size_t j) { return c[i * n + j]; },
      [&](size_t i, size_t j, size_t p) { return double(a[i * k + p]) * b[p * n + j]; }, full(k));
}

// 2: standard matrix multiplication.
using KbStandardMatrixMultiplication = CudaTest;
TEST_F(KbStandardMatrixMultiplication, BenchShape) {
  check_plain("standard", K::kb_standard_matrix_multiplication, S::kStdM, S::kStdK, S::kStdN, false, 201);
}
TEST_F(KbStandardMatrixMultiplication, OddShape) {
  check_plain("standard", K::kb_standard_matrix_multiplication, 67, 131, 93, true, 202);
}

// 3: batched matrix multiplication; C seen as (batch * m) x n.
void check_batched(int batch, int m, int k, int n, bool all, uint64_t seed) {
  std::vector<float> a = signed_data(size_t(batch) * m * k, seed), b = signed_data(size_t(batch) * k * n, seed + 1);
  DeviceBuffer<float> da(a), db(b), dc(size_t(batch) * m * n);
  K::kb_batched_matrix_multiplication(batch, m, k, n, da.get(), db.get(), dc.get());
  std::vector<float> c = dc.download();
  size_t rows = size_t(batch) * m;
  check_product(
      "batched " + dims({batch, m, k, n}), all ? every(rows, n) : sample(rows, n, seed + 2),
      [&](size_t r, size_t j) { return c[r * n + j]; },
      [&](size_t r, size_t j, size_t p) { return double(a[r * k + p]) * b[(r / m * k + p) * n + j]; }, full(k));
}
using KbBatchedMatrixMultiplication = CudaTest;
TEST_F(KbBatchedMatrixMultiplication, BenchShape) {
  check_batched(S::kBmmBatch, S::kBmmM, S::kBmmK, S::kBmmN, false, 301);
}
TEST_F(KbBatchedMatrixMultiplication, OddShape) { check_batched(3, 37, 45, 29, true, 302); }

// 6: large K. The second odd case has more outputs than the capped grid has
// threads, so the grid-stride loop goes round.
using KbMatmulWithLargeKDimension = CudaTest;
TEST_F(KbMatmulWithLargeKDimension, BenchShape) {
  check_plain("large k", K::kb_matmul_with_large_k_dimension, S::kLargeKM, S::kLargeKK, S::kLargeKN, false, 601);
}
TEST_F(KbMatmulWithLargeKDimension, OddShape) {
  check_plain("large k", K::kb_matmul_with_large_k_dimension, 19, 5003, 23, true, 602);
  check_plain("large k", K::kb_matmul_with_large_k_dimension, 4099, 3, 4101, false, 603);
}

// 7: small K.
using KbMatmulWithSmallKDimension = CudaTest;
TEST_F(KbMatmulWithSmallKDimension, BenchShape) {
  check_plain("small k", K::kb_matmul_with_small_k_dimension, S::kSmallKM, S::kSmallKK, S::kSmallKN, false, 701);
}
TEST_F(KbMatmulWithSmallKDimension, OddShape) {
  check_plain("small k", K::kb_matmul_with_small_k_dimension, 301, 7, 259, true, 702);
}

// 8: irregular shapes (the benchmark shape is KernelBench's own odd one).
using KbMatmulWithIrregularShapes = CudaTest;
TEST_F(KbMatmulWithIrregularShapes, BenchShape) {
  check_plain("irregular", K::kb_matmul_with_irregular_shapes, S::kIrrM, S::kIrrK, S::kIrrN, false, 801);
}
TEST_F(KbMatmulWithIrregularShapes, OddShape) {
  check_plain("irregular", K::kb_matmul_with_irregular_shapes, 97, 61, 113, true, 802);
}

// 10: 3-D tensor times matrix; A and C seen as (nb * m) x k and (nb * m) x l.
void check_tensor3d(int nb, int m, int k, int l, bool all, uint64_t seed) {
  std::vector<float> a = signed_data(size_t(nb) * m * k, seed), b = signed_data(size_t(k) * l, seed + 1);
  DeviceBuffer<float> da(a), db(b), dc(size_t(nb) * m * l);
  K::kb_3d_tensor_matrix_multiplication(nb, m, k, l, da.get(), db.get(), dc.get());
  std::vector<float> c = dc.download();
  size_t rows = size_t(nb) * m;
  check_product(
      "3d tensor " + dims({nb, m, k, l}), all ? every(rows, l) : sample(rows, l, seed + 2),
      [&](size_t r, size_t j) { return c[r * l + j]; },
      [&](size_t r, size_t j, size_t p) { return double(a[r * k + p]) * b[p * l + j]; }, full(k));
}
using Kb3dTensorMatrixMultiplication = CudaTest;
TEST_F(Kb3dTensorMatrixMultiplication, BenchShape) { check_tensor3d(S::kT3N, S::kT3M, S::kT3K, S::kT3L, false, 1001); }
TEST_F(Kb3dTensorMatrixMultiplication, OddShape) { check_tensor3d(3, 41, 53, 70, true, 1002); }

// 11: einsum bijl,lk->bijk; A and C seen as (b * i * j) x l and (b * i * j) x k.
void check_tensor4d(int b, int i, int j, int l, int k, bool all, uint64_t seed) {
  size_t rows = size_t(b) * i * j;
  std::vector<float> a = signed_data(rows * l, seed), w = signed_data(size_t(l) * k, seed + 1);
  DeviceBuffer<float> da(a), dw(w), dc(rows * k);
  K::kb_4d_tensor_matrix_multiplication(b, i, j, l, k, da.get(), dw.get(), dc.get());
  std::vector<float> c = dc.download();
  check_product(
      "4d tensor " + dims({b, i, j, l, k}), all ? every(rows, k) : sample(rows, k, seed + 2),
      [&](size_t r, size_t kk) { return c[r * k + kk]; },
      [&](size_t r, size_t kk, size_t p) { return double(a[r * l + p]) * w[p * k + kk]; }, full(l));
}
using Kb4dTensorMatrixMultiplication = CudaTest;
TEST_F(Kb4dTensorMatrixMultiplication, BenchShape) {
  check_tensor4d(S::kT4B, S::kT4I, S::kT4J, S::kT4L, S::kT4K, false, 1101);
}
TEST_F(Kb4dTensorMatrixMultiplication, OddShape) { check_tensor4d(2, 3, 17, 19, 35, true, 1102); }

// 13: symmetric A and B, made as KernelBench does: (R + R^T) / 2 in float.
std::vector<float> symmetric(int n, uint64_t seed) {
  std::vector<float> r = signed_data(size_t(n) * n, seed), s(r.size());
  parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i)
      for (size_t j = 0; j < size_t(n); ++j) s[i * n + j] = (r[i * n + j] + r[j * n + i]) / 2;
  });
  return s;
}
void check_symmetric(int n, bool all, uint64_t seed) {
  std::vector<float> a = symmetric(n, seed), b = symmetric(n, seed + 1);
  DeviceBuffer<float> da(a), db(b), dc(size_t(n) * n);
  K::kb_matmul_for_symmetric_matrices(n, da.get(), db.get(), dc.get());
  std::vector<float> c = dc.download();
  check_product(
      "symmetric " + std::to_string(n), all ? every(n, n) : sample(n, n, seed + 2),
      [&](size_t i, size_t j) { return c[i * n + j]; },
      [&](size_t i, size_t j, size_t p) { return double(a[i * n + p]) * b[p * n + j]; }, full(n));
}
using KbMatmulForSymmetricMatrices = CudaTest;
TEST_F(KbMatmulForSymmetricMatrices, BenchShape) { check_symmetric(S::kSymN, false, 1301); }
// 2053 needs more than the capped grid's 2048 x 2048 threads: the grid-stride loops go round.
TEST_F(KbMatmulForSymmetricMatrices, OddShape) {
  check_symmetric(333, true, 1302);
  check_symmetric(2053, false, 1303);
}

// 14, 15: triangular A and B. `junk` fills the other triangle with NaN
// instead of zeros: the kernels must not read it.
void check_triangular(bool upper, int n, bool all, bool junk, uint64_t seed) {
  std::vector<float> a = signed_data(size_t(n) * n, seed), b = signed_data(size_t(n) * n, seed + 1);
  const float other = junk ? NAN : 0.0f;
  for (size_t i = 0; i < size_t(n); ++i)
    for (size_t j = 0; j < size_t(n); ++j)
      if (upper ? i > j : i < j) a[i * n + j] = b[i * n + j] = other;
  DeviceBuffer<float> da(a), db(b), dc(size_t(n) * n);
  if (upper)
    K::kb_matmul_for_upper_triangular_matrices(n, da.get(), db.get(), dc.get());
  else
    K::kb_matmul_for_lower_triangular_matrices(n, da.get(), db.get(), dc.get());
  std::vector<float> c = dc.download();
  auto range = [upper](size_t i, size_t j) {
    if (upper) return i <= j ? std::pair<size_t, size_t>{i, j + 1} : std::pair<size_t, size_t>{0, 0};
    return i >= j ? std::pair<size_t, size_t>{j, i + 1} : std::pair<size_t, size_t>{0, 0};
  };
  check_product(
      std::string(upper ? "upper " : "lower ") + std::to_string(n), all ? every(n, n) : sample(n, n, seed + 2),
      [&](size_t i, size_t j) { return c[i * n + j]; },
      [&](size_t i, size_t j, size_t p) { return double(a[i * n + p]) * b[p * n + j]; }, range);
}
using KbMatmulForUpperTriangularMatrices = CudaTest;
TEST_F(KbMatmulForUpperTriangularMatrices, BenchShape) { check_triangular(true, S::kUpperN, false, false, 1401); }
TEST_F(KbMatmulForUpperTriangularMatrices, OddShape) { check_triangular(true, 301, true, true, 1402); }
using KbMatmulForLowerTriangularMatrices = CudaTest;
TEST_F(KbMatmulForLowerTriangularMatrices, BenchShape) { check_triangular(false, S::kLowerN, false, false, 1501); }
TEST_F(KbMatmulForLowerTriangularMatrices, OddShape) { check_triangular(false, 289, true, true, 1502); }

// 16, 17, 18: C (m x n) from A stored k x m (transposed) or m x k, B stored
// n x k (transposed) or k x n.
void check_transposed(bool ta, bool tb, int m, int k, int n, bool all, uint64_t seed) {
  std::vector<float> a = signed_data(size_t(m) * k, seed), b = signed_data(size_t(k) * n, seed + 1);
  DeviceBuffer<float> da(a), db(b), dc(size_t(m) * n);
  if (ta && tb)
    K::kb_matmul_with_transposed_both(m, k, n, da.get(), db.get(), dc.get());
  else if (ta)
    K::kb_matmul_with_transposed_a(m, k, n, da.get(), db.get(), dc.get());
  else
    K::kb_matmul_with_transposed_b(m, k, n, da.get(), db.get(), dc.get());
  std::vector<float> c = dc.download();
  auto a_at = [&](size_t i, size_t p) { return ta ? a[p * m + i] : a[i * k + p]; };
  auto b_at = [&](size_t p, size_t j) { return tb ? b[j * k + p] : b[p * n + j]; };
  check_product(
      std::string(ta ? "A.T" : "A") + (tb ? " B.T " : " B ") + dims({m, k, n}),
      all ? every(m, n) : sample(m, n, seed + 2), [&](size_t i, size_t j) { return c[i * n + j]; },
      [&](size_t i, size_t j, size_t p) { return double(a_at(i, p)) * b_at(p, j); }, full(k));
}
using KbMatmulWithTransposedA = CudaTest;
TEST_F(KbMatmulWithTransposedA, BenchShape) { check_transposed(true, false, S::kTrM, S::kTrK, S::kTrN, false, 1601); }
TEST_F(KbMatmulWithTransposedA, OddShape) { check_transposed(true, false, 71, 103, 45, true, 1602); }
using KbMatmulWithTransposedB = CudaTest;
TEST_F(KbMatmulWithTransposedB, BenchShape) {
  check_transposed(false, true, S::kTrBM, S::kTrBK, S::kTrBN, false, 1701);
}
TEST_F(KbMatmulWithTransposedB, OddShape) { check_transposed(false, true, 71, 103, 45, true, 1702); }
using KbMatmulWithTransposedBoth = CudaTest;
TEST_F(KbMatmulWithTransposedBoth, BenchShape) { check_transposed(true, true, S::kTrM, S::kTrK, S::kTrN, false, 1801); }
TEST_F(KbMatmulWithTransposedBoth, OddShape) { check_transposed(true, true, 71, 103, 45, true, 1802); }

}  // namespace
}  // namespace bench_test
