// reduce_sum.
#include <cmath>
#include <mutex>

#include "nnops/nnops.h"
#include "test_util.h"

namespace nnops_test {
namespace {

using Reduce = CudaTest;

TEST_F(Reduce, Sum) {
  const int n = 1 << 26;  // 64M floats: 256 MB
  // Zero-mean data: one float accumulator cannot sum 64M positive values of
  // similar size (past 2^24 each addend falls below half an ulp).
  std::vector<float> x = uniform<float>(n, -1, 1, 11);
  DeviceBuffer<float> dx(x), dout(1);
  nnops::reduce_sum(n, dx.get(), dout.get());
  const float got = dout.download()[0];

  double ref = 0;
  std::mutex mu;
  parallel_for(n, [&](size_t begin, size_t end) {
    double part = 0;
    for (size_t i = begin; i < end; ++i) part += x[i];
    std::lock_guard<std::mutex> lock(mu);
    ref += part;
  });
  // The atomics add in no fixed order into one float; their rounding error
  // grows like sqrt(n). Relative tolerance 1e-3 against the natural scale of
  // the sum of n zero-mean terms.
  const double tol = 1e-3 * std::max(std::abs(ref), std::sqrt(static_cast<double>(n)));
  EXPECT_NEAR(got, ref, tol);
}

}  // namespace
}  // namespace nnops_test
