// matmul.
#include <cmath>
#include <utility>

#include "nnops/nnops.h"
#include "test_util.h"

namespace nnops_test {
namespace {

using Matmul = CudaTest;

// Checks c (m x n) against double-precision dot products at the given
// entries. A float k-sum in any order stays within 2e-6 * sum |a_ip * b_pj|
// of the exact value for these sizes (TF32 would not).
void check_entries(int m, int n, int k, const std::vector<float>& a, const std::vector<float>& b,
                   const std::vector<float>& c, const std::vector<std::pair<int, int>>& entries) {
  size_t first = 0;
  size_t bad = count_failures(
      entries.size(),
      [&](size_t e) {
        auto [i, j] = entries[e];
        double dot = 0, magnitude = 0;
        for (int p = 0; p < k; ++p) {
          double t = static_cast<double>(a[static_cast<size_t>(i) * k + p]) * b[static_cast<size_t>(p) * n + j];
          dot += t;
          magnitude += std::abs(t);
        }
        return std::abs(c[static_cast<size_t>(i) * n + j] - dot) <= 2e-6 * magnitude + 1e-6;
      },
      &first);
  EXPECT_EQ(bad, 0u) << m << "x" << n << "x" << k << ": first bad entry (" << entries[first].first << ", "
                     << entries[first].second << ")";
}

struct Problem {
  int m, n, k;
  std::vector<float> a, b, c;
};

Problem run(int m, int n, int k, uint64_t seed) {
  Problem p{m, n, k, uniform<float>(static_cast<size_t>(m) * k, -1, 1, seed),
            uniform<float>(static_cast<size_t>(k) * n, -1, 1, seed + 1), {}};
  DeviceBuffer<float> da(p.a), db(p.b), dc(static_cast<size_t>(m) * n);
  nnops::matmul(m, n, k, da.get(), db.get(), dc.get());
  p.c = dc.download();
  return p;
}

TEST_F(Matmul, Square2048) {  // 16 MB per matrix, 17 GFLOP
  Problem p = run(2048, 2048, 2048, 31);
  // 256 sampled entries, the four corners among them.
  std::vector<std::pair<int, int>> entries = {{0, 0}, {0, p.n - 1}, {p.m - 1, 0}, {p.m - 1, p.n - 1}};
  for (uint64_t s = 0; entries.size() < 256; ++s) {
    entries.emplace_back(static_cast<int>(unit(33, 2 * s) * p.m), static_cast<int>(unit(33, 2 * s + 1) * p.n));
  }
  check_entries(p.m, p.n, p.k, p.a, p.b, p.c, entries);
}

// No dimension a multiple of a block, a tile or a vector width: every entry.
TEST_F(Matmul, OddShape) {
  Problem p = run(1001, 703, 301, 35);
  std::vector<std::pair<int, int>> entries;
  for (int i = 0; i < p.m; ++i)
    for (int j = 0; j < p.n; ++j) entries.emplace_back(i, j);
  check_entries(p.m, p.n, p.k, p.a, p.b, p.c, entries);
}

}  // namespace
}  // namespace nnops_test
