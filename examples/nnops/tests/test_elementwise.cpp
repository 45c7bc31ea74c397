// fill, saxpy, add_inplace and the two ReLU instantiations.
#include <cmath>

#include "nnops/nnops.h"
#include "test_util.h"

namespace nnops_test {
namespace {

constexpr int kN = 1 << 26;  // 64M floats: 256 MB per buffer

using Elementwise = CudaTest;

// a*x + y in float, fused or not, lies this close to the exact value.
bool axpy_close(float got, float a, float x, float y) {
  double ax = static_cast<double>(a) * x;
  return std::abs(got - (ax + y)) <= 1e-6 * (std::abs(ax) + std::abs(static_cast<double>(y)));
}

TEST_F(Elementwise, Fill) {
  const int n = 1 << 24;
  DeviceBuffer<float> x(n);
  nnops::fill(n, 3.5f, x.get());
  std::vector<float> got = x.download();
  size_t first = 0;
  EXPECT_EQ(count_failures(n, [&](size_t i) { return got[i] == 3.5f; }, &first), 0u) << "first bad index " << first;
}

TEST_F(Elementwise, Saxpy) {
  const float a = 2.5f;
  std::vector<float> x = uniform<float>(kN, -1, 1, 1), y = uniform<float>(kN, -1, 1, 2);
  DeviceBuffer<float> dx(x), dy(y);
  nnops::saxpy(kN, a, dx.get(), dy.get());
  std::vector<float> got = dy.download();
  size_t first = 0;
  EXPECT_EQ(count_failures(kN, [&](size_t i) { return axpy_close(got[i], a, x[i], y[i]); }, &first), 0u)
      << "first bad index " << first << ": got " << got[first] << ", expected " << a * x[first] + y[first];
}

// The second launch site of the saxpy kernel (through cudaLaunchKernel).
TEST_F(Elementwise, AddInplace) {
  std::vector<float> x = uniform<float>(kN, -1, 1, 3), y = uniform<float>(kN, -1, 1, 4);
  DeviceBuffer<float> dx(x), dy(y);
  nnops::add_inplace(kN, dx.get(), dy.get());
  std::vector<float> got = dy.download();
  size_t first = 0;
  EXPECT_EQ(count_failures(kN, [&](size_t i) { return axpy_close(got[i], 1.0f, x[i], y[i]); }, &first), 0u)
      << "first bad index " << first << ": got " << got[first] << ", expected " << x[first] + y[first];
}

TEST_F(Elementwise, ReluFloat) {
  std::vector<float> x = uniform<float>(kN, -1, 1, 5);
  DeviceBuffer<float> dx(x), dy(kN);
  nnops::relu(kN, dx.get(), dy.get());
  std::vector<float> got = dy.download();
  size_t first = 0;
  EXPECT_EQ(count_failures(kN, [&](size_t i) { return got[i] == std::max(x[i], 0.0f); }, &first), 0u)
      << "first bad index " << first << ": x " << x[first] << ", got " << got[first];
}

TEST_F(Elementwise, ReluDouble) {
  const int n = kN / 2;  // 32M doubles: 256 MB per buffer
  std::vector<double> x = uniform<double>(n, -1, 1, 6);
  DeviceBuffer<double> dx(x), dy(n);
  nnops::relu(n, dx.get(), dy.get());
  std::vector<double> got = dy.download();
  size_t first = 0;
  EXPECT_EQ(count_failures(n, [&](size_t i) { return got[i] == std::max(x[i], 0.0); }, &first), 0u)
      << "first bad index " << first << ": x " << x[first] << ", got " << got[first];
}

}  // namespace
}  // namespace nnops_test
