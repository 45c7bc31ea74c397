// KernelBench reductions family, part 3: scans along dim 1 of a rows x cols
// matrix (90 cumprod, 91 reverse, 92 exclusive, 93 masked cumsum). References
// in double, every element checked.
#include <cmath>
#include <vector>

#include "bench/kb/reductions.h"
#include "check.h"

namespace bench_test {
namespace {

namespace R = bench::kb::reductions;

using KbCumprod = CudaTest;
using KbCumsumReverse = CudaTest;
using KbCumsumExclusive = CudaTest;
using KbMaskedCumsum = CudaTest;

// The product of torch.rand values underflows to zero after ~100 columns,
// which would leave most of a 32768-long row unchecked; the benchmark shape
// therefore takes values in [0.99, 1.01), whose products stay near 1 along
// the whole row. The odd shape uses torch.rand's [0, 1) (underflow
// included). Float products over 32768 terms drift by ~1e-5 relative.
void check_cumprod(int rows, int cols, double lo, double hi, uint64_t seed) {
  std::vector<float> x = uniform<float>(size_t(rows) * cols, lo, hi, seed);
  DeviceBuffer<float> dx(x), dy(x.size());
  bench::kb::kb_cumprod(rows, cols, dx.get(), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> ref(x.size());
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      double running = 1;
      for (int c = 0; c < cols; ++c) ref[r * cols + c] = running *= x[r * cols + c];
    }
  });
  expect_all_close("cumprod", y.size(), [&](size_t i) { return y[i]; }, [&](size_t i) { return ref[i]; },
                   [&](size_t i) { return 1e-4 * std::abs(ref[i]) + 1e-37; });
}

TEST_F(KbCumprod, BenchShape) { check_cumprod(R::kScanRows, R::kScanCols, 0.99, 1.01, 9001); }
TEST_F(KbCumprod, OddShape) { check_cumprod(999, 1237, 0, 1, 9002); }

enum class Scan { kReverse, kExclusive, kMasked };

// Values in [0, 1) (torch.rand), the mask true with probability 1/2 (torch.randint(0, 2)).
// Prefix sums grow along the row: 1e-4 relative covers any float order at these lengths.
void check_cumsum(Scan kind, int rows, int cols, uint64_t seed) {
  const size_t n = size_t(rows) * cols;
  std::vector<float> x = uniform<float>(n, 0, 1, seed);
  std::vector<char> mask_bytes(n);
  parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) mask_bytes[i] = unit(seed + 1, i) < 0.5;
  });
  DeviceBuffer<float> dx(x), dy(n);
  DeviceBuffer<char> dmask(mask_bytes);
  if (kind == Scan::kReverse) bench::kb::kb_cumsum_reverse(rows, cols, dx.get(), dy.get());
  if (kind == Scan::kExclusive) bench::kb::kb_cumsum_exclusive(rows, cols, dx.get(), dy.get());
  if (kind == Scan::kMasked)
    bench::kb::kb_masked_cumsum(rows, cols, dx.get(), reinterpret_cast<const bool*>(dmask.get()), dy.get());
  std::vector<float> y = dy.download();
  std::vector<double> ref(n);
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      const size_t row = r * cols;
      double running = 0;
      if (kind == Scan::kReverse) {
        for (int c = cols - 1; c >= 0; --c) ref[row + c] = running += x[row + c];
      } else if (kind == Scan::kExclusive) {
        for (int c = 0; c < cols; ++c) {
          ref[row + c] = running;
          running += x[row + c];
        }
      } else {
        for (int c = 0; c < cols; ++c) ref[row + c] = running += mask_bytes[row + c] ? x[row + c] : 0.0f;
      }
    }
  });
  const char* what = kind == Scan::kReverse ? "cumsum_reverse" : kind == Scan::kExclusive ? "cumsum_exclusive" : "masked_cumsum";
  expect_all_close(what, n, [&](size_t i) { return y[i]; }, [&](size_t i) { return ref[i]; },
                   [&](size_t i) { return 1e-4 * ref[i] + 1e-6; });
}

TEST_F(KbCumsumReverse, BenchShape) { check_cumsum(Scan::kReverse, R::kScanRows, R::kScanCols, 9101); }
TEST_F(KbCumsumReverse, OddShape) { check_cumsum(Scan::kReverse, 999, 1237, 9102); }
TEST_F(KbCumsumExclusive, BenchShape) { check_cumsum(Scan::kExclusive, R::kScanRows, R::kScanCols, 9201); }
TEST_F(KbCumsumExclusive, OddShape) { check_cumsum(Scan::kExclusive, 999, 1237, 9202); }
TEST_F(KbMaskedCumsum, BenchShape) { check_cumsum(Scan::kMasked, R::kScanRows, R::kScanCols, 9301); }
TEST_F(KbMaskedCumsum, OddShape) { check_cumsum(Scan::kMasked, 999, 1237, 9302); }

}  // namespace
}  // namespace bench_test
