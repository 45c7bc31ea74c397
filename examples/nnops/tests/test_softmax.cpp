// softmax_rows.
#include <cmath>

#include "nnops/nnops.h"
#include "test_util.h"

namespace nnops_test {
namespace {

using Softmax = CudaTest;

// Rows of values in [-8, 8) shifted by a per-row offset in [-100, 100): exp
// overflows float unless the kernel subtracts the row maximum.
std::vector<float> softmax_input(int rows, int cols, uint64_t seed) {
  std::vector<float> x = uniform<float>(static_cast<size_t>(rows) * cols, -8, 8, seed);
  parallel_for(rows, [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      float offset = static_cast<float>(-100 + 200 * unit(seed + 1, r));
      for (int c = 0; c < cols; ++c) x[r * cols + c] += offset;
    }
  });
  return x;
}

// Every row of `got` sums to 1; rows 0, step, 2*step, ... and the last row
// match a double-precision softmax elementwise.
void check_softmax(int rows, int cols, const std::vector<float>& x, const std::vector<float>& got, int step) {
  size_t first = 0;
  size_t bad_sums = count_failures(
      rows,
      [&](size_t r) {
        double sum = 0;
        for (int c = 0; c < cols; ++c) sum += got[r * cols + c];
        return std::abs(sum - 1.0) <= 1e-4;
      },
      &first);
  EXPECT_EQ(bad_sums, 0u) << "first row not summing to 1: " << first;

  size_t sampled = static_cast<size_t>((rows - 1) / step + 2);
  size_t bad_rows = count_failures(
      sampled,
      [&](size_t s) {
        size_t r = s + 1 < sampled ? s * step : rows - 1;
        const float* in = &x[r * cols];
        double max_value = in[0], sum = 0;
        for (int c = 0; c < cols; ++c) max_value = std::max<double>(max_value, in[c]);
        for (int c = 0; c < cols; ++c) sum += std::exp(in[c] - max_value);
        for (int c = 0; c < cols; ++c) {
          double ref = std::exp(in[c] - max_value) / sum;
          if (!(std::abs(got[r * cols + c] - ref) <= 1e-4 * ref + 1e-9)) return false;
        }
        return true;
      },
      &first);
  EXPECT_EQ(bad_rows, 0u) << "first mismatching sample " << first << " (step " << step << ")";
}

TEST_F(Softmax, Rows8192x4096) {
  const int rows = 8192, cols = 4096;  // 128 MB per buffer
  std::vector<float> x = softmax_input(rows, cols, 21);
  DeviceBuffer<float> dx(x), dy(x.size());
  nnops::softmax_rows(rows, cols, dx.get(), dy.get());
  check_softmax(rows, cols, x, dy.download(), 16);
}

// Neither dimension a multiple of a warp or a vector width.
TEST_F(Softmax, OddShape) {
  const int rows = 4099, cols = 1000;
  std::vector<float> x = softmax_input(rows, cols, 23);
  DeviceBuffer<float> dx(x), dy(x.size());
  nnops::softmax_rows(rows, cols, dx.get(), dy.get());
  check_softmax(rows, cols, x, dy.download(), 1);
}

}  // namespace
}  // namespace nnops_test
