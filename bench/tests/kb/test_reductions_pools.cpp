// KernelBench reductions family, part 4: max and average pooling in 1, 2 and
// 3 dimensions (41-46). One reference for all six: a pooling over three
// axes (a 1-D pooling has two axes of size 1), every output checked.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "bench/kb/reductions.h"
#include "check.h"

namespace bench_test {
namespace {

namespace R = bench::kb::reductions;
using bench::kb::pool_out;

using KbMaxPooling1d = CudaTest;
using KbMaxPooling2d = CudaTest;
using KbMaxPooling3d = CudaTest;
using KbAveragePooling1d = CudaTest;
using KbAveragePooling2d = CudaTest;
using KbAveragePooling3d = CudaTest;

// One axis of a pooling window: input extent, kernel, stride, padding, dilation.
struct Axis {
  int in, k, s, p, d;
  int out() const { return pool_out(in, k, s, p, d); }
};
constexpr Axis kUnit{1, 1, 1, 0, 1};  // an axis the pooling does not have

// Max pooling (padding is -inf) or average pooling with count_include_pad
// (padding adds zeros, every window divides by its full size) of `planes`
// planes over axes (z, y, x), in double.
std::vector<double> pool_reference(const std::vector<float>& x, size_t planes, std::array<Axis, 3> a, bool is_max) {
  const size_t in_plane = size_t(a[0].in) * a[1].in * a[2].in;
  const size_t out_plane = size_t(a[0].out()) * a[1].out() * a[2].out();
  std::vector<double> y(planes * out_plane);
  parallel_for(y.size(), [&](size_t begin, size_t end) {
    for (size_t o = begin; o < end; ++o) {
      const size_t plane = o / out_plane;
      const int ox = int(o % a[2].out()), oy = int(o / a[2].out() % a[1].out()),
                oz = int(o / (size_t(a[2].out()) * a[1].out()) % a[0].out());
      double acc = is_max ? -std::numeric_limits<double>::infinity() : 0.0;
      for (int kz = 0; kz < a[0].k; ++kz)
        for (int ky = 0; ky < a[1].k; ++ky)
          for (int kx = 0; kx < a[2].k; ++kx) {
            const int iz = oz * a[0].s - a[0].p + kz * a[0].d, iy = oy * a[1].s - a[1].p + ky * a[1].d,
                      ix = ox * a[2].s - a[2].p + kx * a[2].d;
            if (iz < 0 || iz >= a[0].in || iy < 0 || iy >= a[1].in || ix < 0 || ix >= a[2].in) continue;
            const double v = x[plane * in_plane + (size_t(iz) * a[1].in + iy) * a[2].in + ix];
            acc = is_max ? std::max(acc, v) : acc + v;
          }
      y[o] = is_max ? acc : acc / (double(a[0].k) * a[1].k * a[2].k);
    }
  });
  return y;
}

// Runs `launch(x, y)` on torch.rand-like input and compares with the reference:
// max pooling exactly, average pooling to 1e-5 (a float sum of up to 121 taps).
template <typename Launch>
void check_pool(const char* what, int n, int c, std::array<Axis, 3> a, bool is_max, uint64_t seed, Launch launch) {
  const size_t planes = size_t(n) * c;
  std::vector<float> x = uniform<float>(planes * a[0].in * a[1].in * a[2].in, 0, 1, seed);
  const std::vector<double> ref = pool_reference(x, planes, a, is_max);
  DeviceBuffer<float> dx(x), dy(ref.size());
  launch(dx.get(), dy.get());
  std::vector<float> y = dy.download();
  const double rtol = is_max ? 0 : 1e-5, atol = is_max ? 0 : 1e-7;
  expect_all_close(what, y.size(), [&](size_t i) { return y[i]; }, [&](size_t i) { return ref[i]; },
                   [&](size_t i) { return rtol * std::abs(ref[i]) + atol; });
}

void check_max_pool1d(int n, int c, int len, int k, int s, int p, int d, uint64_t seed) {
  check_pool("max_pool1d", n, c, {kUnit, kUnit, Axis{len, k, s, p, d}}, true, seed, [&](float* x, float* y) {
    bench::kb::kb_max_pooling_1d(n, c, len, k, s, p, d, x, y);
  });
}

TEST_F(KbMaxPooling1d, BenchShape) {
  check_max_pool1d(R::kMp1N, R::kMp1C, R::kMp1L, R::kMp1K, R::kMp1S, R::kMp1P, R::kMp1D, 4101);
}
TEST_F(KbMaxPooling1d, OddShape) {
  check_max_pool1d(3, 5, 1001, R::kMp1K, R::kMp1S, R::kMp1P, R::kMp1D, 4102);
  check_max_pool1d(2, 7, 999, 5, 3, 2, 2, 4103);  // stride, padding and dilation all active
}

void check_max_pool2d(int n, int c, int h, int w, int k, int s, int p, int d, uint64_t seed) {
  check_pool("max_pool2d", n, c, {kUnit, Axis{h, k, s, p, d}, Axis{w, k, s, p, d}}, true, seed,
             [&](float* x, float* y) { bench::kb::kb_max_pooling_2d(n, c, h, w, k, s, p, d, x, y); });
}

TEST_F(KbMaxPooling2d, BenchShape) {
  check_max_pool2d(R::kMp2N, R::kMp2C, R::kMp2H, R::kMp2W, R::kMp2K, R::kMp2S, R::kMp2P, R::kMp2D, 4201);
}
TEST_F(KbMaxPooling2d, OddShape) {
  check_max_pool2d(3, 5, 37, 101, R::kMp2K, R::kMp2S, R::kMp2P, R::kMp2D, 4202);
  check_max_pool2d(2, 3, 41, 67, 3, 2, 1, 2, 4203);
}

void check_max_pool3d(int n, int c, int d, int h, int w, int k, int s, int p, int dil, uint64_t seed) {
  check_pool("max_pool3d", n, c, {Axis{d, k, s, p, dil}, Axis{h, k, s, p, dil}, Axis{w, k, s, p, dil}}, true, seed,
             [&](float* x, float* y) { bench::kb::kb_max_pooling_3d(n, c, d, h, w, k, s, p, dil, x, y); });
}

TEST_F(KbMaxPooling3d, BenchShape) {
  check_max_pool3d(R::kMp3N, R::kMp3C, R::kMp3Dim, R::kMp3Dim, R::kMp3Dim, R::kMp3K, R::kMp3S, R::kMp3P, R::kMp3D,
                   4301);
}
TEST_F(KbMaxPooling3d, OddShape) {
  check_max_pool3d(3, 5, 19, 23, 37, R::kMp3K, R::kMp3S, R::kMp3P, R::kMp3D, 4302);
  check_max_pool3d(2, 3, 17, 21, 29, 2, 1, 1, 1, 4303);
}

void check_avg_pool1d(int n, int c, int len, int k, int s, int p, uint64_t seed) {
  check_pool("avg_pool1d", n, c, {kUnit, kUnit, Axis{len, k, s, p, 1}}, false, seed,
             [&](float* x, float* y) { bench::kb::kb_average_pooling_1d(n, c, len, k, s, p, x, y); });
}

TEST_F(KbAveragePooling1d, BenchShape) {
  check_avg_pool1d(R::kAp1N, R::kAp1C, R::kAp1L, R::kAp1K, R::kAp1S, R::kAp1P, 4401);
}
TEST_F(KbAveragePooling1d, OddShape) {
  check_avg_pool1d(3, 5, 1001, R::kAp1K, R::kAp1S, R::kAp1P, 4402);
  check_avg_pool1d(2, 7, 999, 5, 3, 2, 4403);
}

void check_avg_pool2d(int n, int c, int h, int w, int k, int s, int p, uint64_t seed) {
  check_pool("avg_pool2d", n, c, {kUnit, Axis{h, k, s, p, 1}, Axis{w, k, s, p, 1}}, false, seed,
             [&](float* x, float* y) { bench::kb::kb_average_pooling_2d(n, c, h, w, k, s, p, x, y); });
}

TEST_F(KbAveragePooling2d, BenchShape) {
  check_avg_pool2d(R::kAp2N, R::kAp2C, R::kAp2H, R::kAp2W, R::kAp2K, R::kAp2S, R::kAp2P, 4501);
}
TEST_F(KbAveragePooling2d, OddShape) {
  check_avg_pool2d(3, 5, 101, 67, R::kAp2K, R::kAp2S, R::kAp2P, 4502);
  check_avg_pool2d(2, 3, 41, 37, 3, 2, 1, 4503);
}

void check_avg_pool3d(int n, int c, int d, int h, int w, int k, int s, int p, uint64_t seed) {
  check_pool("avg_pool3d", n, c, {Axis{d, k, s, p, 1}, Axis{h, k, s, p, 1}, Axis{w, k, s, p, 1}}, false, seed,
             [&](float* x, float* y) { bench::kb::kb_average_pooling_3d(n, c, d, h, w, k, s, p, x, y); });
}

TEST_F(KbAveragePooling3d, BenchShape) {
  check_avg_pool3d(R::kAp3N, R::kAp3C, R::kAp3D, R::kAp3H, R::kAp3W, R::kAp3K, R::kAp3S, R::kAp3P, 4601);
}
TEST_F(KbAveragePooling3d, OddShape) {
  check_avg_pool3d(3, 5, 19, 23, 37, R::kAp3K, R::kAp3S, R::kAp3P, 4602);
  check_avg_pool3d(2, 3, 17, 21, 29, 2, 1, 1, 4603);
}

}  // namespace
}  // namespace bench_test
