// transpose.
#include "nnops/nnops.h"
#include "test_util.h"

namespace nnops_test {
namespace {

using Transpose = CudaTest;

void check_transpose(int rows, int cols, uint64_t seed) {
  const size_t n = static_cast<size_t>(rows) * cols;
  std::vector<float> in = uniform<float>(n, -1, 1, seed);
  DeviceBuffer<float> din(in), dout(n);
  nnops::transpose(rows, cols, din.get(), dout.get());
  std::vector<float> out = dout.download();
  size_t first = 0;
  // out is cols x rows: out[c][r] == in[r][c], bit for bit.
  size_t bad = count_failures(
      n, [&](size_t i) { return out[i] == in[(i % rows) * cols + i / rows]; }, &first);
  EXPECT_EQ(bad, 0u) << rows << "x" << cols << ": first bad output index " << first;
}

TEST_F(Transpose, Square8192) { check_transpose(8192, 8192, 41); }  // 256 MB per buffer

// Rectangular, neither side a multiple of the block or of a tile.
TEST_F(Transpose, OddShape) { check_transpose(3001, 1999, 43); }

}  // namespace
}  // namespace nnops_test
