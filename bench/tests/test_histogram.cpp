// histogram.
#include <mutex>

#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Histogram = CudaTest;
namespace S = bench::shapes;

// v = u^8: about 45% of the values fall in bin 0 and the counts fall off
// steeply, so naive atomics serialise. One value in a thousand is outside
// [0, 1) (-0.25 or 1.5) and must be ignored.
void check_histogram(int n, int num_bins, uint64_t seed) {
  std::vector<float> values(n);
  parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      double u = unit(seed, i), u2 = u * u, u4 = u2 * u2, w = unit(seed + 1, i);
      values[i] = w < 1e-3 ? (w < 5e-4 ? -0.25f : 1.5f) : static_cast<float>(u4 * u4);
    }
  });
  DeviceBuffer<float> dvalues(values);
  DeviceBuffer<unsigned int> dbins(num_bins);
  bench::histogram(n, dvalues.get(), num_bins, dbins.get());
  std::vector<unsigned int> got = dbins.download();

  // The same float arithmetic as the kernel decides the bin.
  std::vector<unsigned int> ref(num_bins, 0);
  std::mutex mu;
  parallel_for(n, [&](size_t begin, size_t end) {
    std::vector<unsigned int> local(num_bins, 0);
    for (size_t i = begin; i < end; ++i) {
      int b = static_cast<int>(values[i] * static_cast<float>(num_bins));
      if (values[i] >= 0.0f && b < num_bins) ++local[b];
    }
    std::lock_guard<std::mutex> lock(mu);
    for (int b = 0; b < num_bins; ++b) ref[b] += local[b];
  });
  EXPECT_GT(ref[0], static_cast<unsigned>(n / 3)) << "the data is meant to be skewed";
  EXPECT_EQ(got, ref);
}

TEST_F(Histogram, BenchShape) { check_histogram(S::kHistN, S::kHistBins, 101); }
TEST_F(Histogram, OddShape) { check_histogram(1000003, 100, 103); }

}  // namespace
}  // namespace bench_test
