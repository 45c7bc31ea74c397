// matmul (square) and matmul_tall_skinny.
#include <cmath>
#include <utility>

#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Matmul = CudaTest;
namespace S = bench::shapes;

// c (m x n) against double dot products at the given entries. A float k-sum
// in any order stays within `rel` * sum |a_ip b_pj| of the exact value for
// these sizes; TF32 (10-bit mantissa products) would not.
void check_entries(int m, int n, int k, const std::vector<float>& a, const std::vector<float>& b,
                   const std::vector<float>& c, const std::vector<std::pair<int, int>>& entries, double rel) {
  std::vector<double> dot(entries.size()), magnitude(entries.size());
  parallel_for(entries.size(), [&](size_t begin, size_t end) {
    for (size_t e = begin; e < end; ++e) {
      auto [i, j] = entries[e];
      for (int p = 0; p < k; ++p) {
        double t = double(a[size_t(i) * k + p]) * b[size_t(p) * n + j];
        dot[e] += t;
        magnitude[e] += std::abs(t);
      }
    }
  });
  expect_all_close(
      std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k), entries.size(),
      [&](size_t e) { return c[size_t(entries[e].first) * n + entries[e].second]; }, [&](size_t e) { return dot[e]; },
      [&](size_t e) { return rel * magnitude[e] + 1e-6; });
}

// 1024 sampled entries, the four corners among them.
std::vector<std::pair<int, int>> sample(int m, int n, uint64_t seed) {
  std::vector<std::pair<int, int>> e = {{0, 0}, {0, n - 1}, {m - 1, 0}, {m - 1, n - 1}};
  for (uint64_t s = 0; e.size() < 1024; ++s)
    e.emplace_back(static_cast<int>(unit(seed, 2 * s) * m), static_cast<int>(unit(seed, 2 * s + 1) * n));
  return e;
}

std::vector<std::pair<int, int>> every(int m, int n) {
  std::vector<std::pair<int, int>> e;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) e.emplace_back(i, j);
  return e;
}

void check_square(int n, bool all, uint64_t seed) {
  std::vector<float> a = uniform<float>(size_t(n) * n, -1, 1, seed), b = uniform<float>(size_t(n) * n, -1, 1, seed + 1);
  DeviceBuffer<float> da(a), db(b), dc(size_t(n) * n);
  bench::matmul(n, da.get(), db.get(), dc.get());
  check_entries(n, n, n, a, b, dc.download(), all ? every(n, n) : sample(n, n, seed + 2), 2e-6);
}

void check_tall_skinny(int m, int k, bool all, uint64_t seed) {
  std::vector<float> a = uniform<float>(size_t(m) * k, -1, 1, seed), b = uniform<float>(size_t(k) * m, -1, 1, seed + 1);
  DeviceBuffer<float> da(a), db(b), dc(size_t(m) * m);
  bench::matmul_tall_skinny(m, k, da.get(), db.get(), dc.get());
  check_entries(m, m, k, a, b, dc.download(), all ? every(m, m) : sample(m, m, seed + 2), 2e-6);
}

TEST_F(Matmul, SquareBenchShape) { check_square(S::kMatN, false, 61); }
TEST_F(Matmul, TallSkinnyBenchShape) { check_tall_skinny(S::kTsM, S::kTsK, false, 62); }
// No dimension a multiple of a block, tile or vector width: every entry.
TEST_F(Matmul, SquareOddShape) { check_square(333, true, 63); }
TEST_F(Matmul, TallSkinnyOddShape) { check_tall_skinny(1001, 31, true, 64); }

}  // namespace
}  // namespace bench_test
