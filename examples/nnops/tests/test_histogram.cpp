// histogram.
#include <mutex>

#include "nnops/nnops.h"
#include "test_util.h"

namespace nnops_test {
namespace {

using Histogram = CudaTest;

TEST_F(Histogram, Skewed256Bins) {
  const int n = 1 << 26;  // 64M int values: 256 MB
  const int num_bins = 256;
  // bin = floor(256 * u^8): half of all values land in bin 0, and the counts
  // fall off steeply after it. One value in a thousand is out of range
  // (-1 or num_bins) and must be ignored.
  std::vector<int> values(n);
  parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      double u = unit(61, i), u2 = u * u, u4 = u2 * u2;
      values[i] = std::min(num_bins - 1, static_cast<int>(num_bins * u4 * u4));
      double w = unit(62, i);
      if (w < 1e-3) values[i] = w < 5e-4 ? -1 : num_bins;
    }
  });
  DeviceBuffer<int> dvalues(values);
  DeviceBuffer<unsigned int> dbins(num_bins);
  nnops::histogram(n, dvalues.get(), num_bins, dbins.get());
  std::vector<unsigned int> got = dbins.download();

  std::vector<unsigned int> ref(num_bins, 0);
  std::mutex mu;
  parallel_for(n, [&](size_t begin, size_t end) {
    std::vector<unsigned int> local(num_bins, 0);
    for (size_t i = begin; i < end; ++i) {
      if (values[i] >= 0 && values[i] < num_bins) ++local[values[i]];
    }
    std::lock_guard<std::mutex> lock(mu);
    for (int b = 0; b < num_bins; ++b) ref[b] += local[b];
  });
  EXPECT_GT(ref[0], static_cast<unsigned>(n / 3)) << "the data is meant to be skewed";
  EXPECT_EQ(got, ref);
}

}  // namespace
}  // namespace nnops_test
