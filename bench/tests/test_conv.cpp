// conv2d and conv1d (valid, stride 1, no bias).
#include <cmath>

#include "bench/kernels.h"
#include "bench/shapes.h"
#include "check.h"

namespace bench_test {
namespace {

using Conv = CudaTest;
namespace S = bench::shapes;

// Outputs are checked at `stride`-spaced flat indices (1: every one) and at
// the last one, against double sums within 2e-6 of sum |x w|.
template <typename Term>
void check_outputs(const std::string& what, const std::vector<float>& y, size_t stride, int terms, Term term) {
  size_t samples = (y.size() - 1) / stride + 2;
  auto index = [&](size_t s) { return s + 1 < samples ? s * stride : y.size() - 1; };
  std::vector<double> dot(samples), magnitude(samples);
  parallel_for(samples, [&](size_t begin, size_t end) {
    for (size_t s = begin; s < end; ++s)
      for (int t = 0; t < terms; ++t) {
        double v = term(index(s), t);
        dot[s] += v;
        magnitude[s] += std::abs(v);
      }
  });
  expect_all_close(what, samples, [&](size_t s) { return y[index(s)]; }, [&](size_t s) { return dot[s]; },
                   [&](size_t s) { return 2e-6 * magnitude[s] + 1e-6; });
}

void check_conv2d(int n, int cin, int h, int w, int cout, int k, size_t stride, uint64_t seed) {
  const int oh = h - k + 1, ow = w - k + 1;
  std::vector<float> x = uniform<float>(size_t(n) * cin * h * w, -1, 1, seed);
  std::vector<float> wt = uniform<float>(size_t(cout) * cin * k * k, -1, 1, seed + 1);
  DeviceBuffer<float> dx(x), dw(wt), dy(size_t(n) * cout * oh * ow);
  bench::conv2d(n, cin, h, w, cout, k, dx.get(), dw.get(), dy.get());
  check_outputs("conv2d", dy.download(), stride, cin * k * k, [&](size_t o, int t) {
    size_t col = o % ow, row = o / ow % oh, co = o / (size_t(ow) * oh) % cout, img = o / (size_t(ow) * oh * cout);
    size_t ci = t / (k * k), dy_ = t / k % k, dx_ = t % k;
    return double(x[((img * cin + ci) * h + row + dy_) * w + col + dx_]) * wt[((co * cin + ci) * k + dy_) * k + dx_];
  });
}

void check_conv1d(int n, int cin, int len, int cout, int k, size_t stride, uint64_t seed) {
  const int olen = len - k + 1;
  std::vector<float> x = uniform<float>(size_t(n) * cin * len, -1, 1, seed);
  std::vector<float> wt = uniform<float>(size_t(cout) * cin * k, -1, 1, seed + 1);
  DeviceBuffer<float> dx(x), dw(wt), dy(size_t(n) * cout * olen);
  bench::conv1d(n, cin, len, cout, k, dx.get(), dw.get(), dy.get());
  check_outputs("conv1d", dy.download(), stride, cin * k, [&](size_t o, int t) {
    size_t pos = o % olen, co = o / olen % cout, img = o / (size_t(olen) * cout);
    size_t ci = t / k, d = t % k;
    return double(x[(img * cin + ci) * len + pos + d]) * wt[(co * cin + ci) * k + d];
  });
}

// The benchmark shapes: every 97th output (a prime stride, so every channel
// and position class is visited) and the last one.
TEST_F(Conv, Conv2dBenchShape) { check_conv2d(S::kC2N, S::kC2Cin, S::kC2H, S::kC2W, S::kC2Cout, S::kC2K, 97, 81); }
TEST_F(Conv, Conv1dBenchShape) { check_conv1d(S::kC1N, S::kC1Cin, S::kC1L, S::kC1Cout, S::kC1K, 97, 82); }
// Odd sizes and a 5-wide kernel: every output.
TEST_F(Conv, Conv2dOddShape) { check_conv2d(2, 3, 37, 53, 7, 5, 1, 83); }
TEST_F(Conv, Conv1dOddShape) { check_conv1d(3, 5, 1001, 9, 5, 1, 84); }

}  // namespace
}  // namespace bench_test
