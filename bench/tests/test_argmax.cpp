// argmax over dim 1.
#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Argmax = CudaTest;
namespace S = bench::shapes;

// Values are quantised to 1/1024 so that ties are common: the first maximal
// index must win, as in torch.argmax.
void check_argmax(int b, int d1, int d2, uint64_t seed) {
  std::vector<float> x = uniform<float>(static_cast<size_t>(b) * d1 * d2, 0, 1, seed);
  for (float& v : x) v = std::floor(v * 1024) / 1024;
  DeviceBuffer<float> dx(x);
  DeviceBuffer<int> dout(static_cast<size_t>(b) * d2);
  bench::argmax(b, d1, d2, dx.get(), dout.get());
  std::vector<int> got = dout.download();
  auto ref = [&](size_t o) {
    size_t batch = o / d2, j = o % d2;
    int best = 0;
    for (int i = 1; i < d1; ++i)
      if (x[(batch * d1 + i) * d2 + j] > x[(batch * d1 + best) * d2 + j]) best = i;
    return double(best);
  };
  expect_all_close("argmax", got.size(), [&](size_t o) { return got[o]; }, ref, [](size_t) { return 0.0; });
}

TEST_F(Argmax, BenchShape) { check_argmax(S::kDimB, S::kDimD1, S::kDimD2, 21); }
TEST_F(Argmax, OddShape) { check_argmax(3, 301, 129, 22); }

}  // namespace
}  // namespace bench_test
