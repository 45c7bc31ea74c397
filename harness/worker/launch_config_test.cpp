#include "harness/worker/launch_config.h"

#include <vector>
#include <string>
#include <cstdint>
#include <gtest/gtest.h>

#include <cstring>

namespace stark::harness {
namespace {

std::string i32(int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }
std::string f32(float v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

std::vector<ParamSpec> params() {
  return {{"n", ParamKind::Scalar, 4, "int", false, {}},
          {"a", ParamKind::Scalar, 4, "float", false, {}},
          {"x", ParamKind::Pointer, 8, "float", true, {}},
          {"y", ParamKind::Pointer, 8, "float", false, {}}};
}

Capture capture() {
  Capture c;
  c.id = "c1";
  c.mangled = "_Z5saxpyifPKfPf";
  c.launch.grid = {4096, 1, 1};
  c.launch.block = {256, 1, 1};
  c.args = {{"n", ParamKind::Scalar, i32(1 << 20), std::nullopt, 0},
            {"a", ParamKind::Scalar, f32(2.0f), std::nullopt, 0},
            {"x", ParamKind::Pointer, "", 0, 0},
            {"y", ParamKind::Pointer, "", 1, 64}};
  c.buffers = {{4 << 20, "f32", "device", "h", "h"}, {(4 << 20) + 64, "f32", "device", "h", "h"}};
  return c;
}

TEST(LaunchConfig, NoOverrideKeepsTheCapturedShape) {
  auto d = launch_dims(capture(), params(), {});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->grid, (Dim3{4096, 1, 1}));
  EXPECT_EQ(d->block, (Dim3{256, 1, 1}));
  EXPECT_EQ(d->describe(), "grid (4096,1,1) block (256,1,1) shmem 0");
}

TEST(LaunchConfig, OverrideFromCapturedValues) {
  LaunchOverride o;
  o.grid = {"ceil_div(n, 1024)"};
  o.block = {"1024"};
  o.shmem = "block.x * 4";
  auto d = launch_dims(capture(), params(), o);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->grid, (Dim3{1024, 1, 1}));
  EXPECT_EQ(d->block, (Dim3{1024, 1, 1}));
  EXPECT_EQ(d->shmem, 1024u);  // the original block.x, not the new one
  o = {};
  o.grid = {"grid.x / 2", "2", "1"};
  d = launch_dims(capture(), params(), o);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->grid, (Dim3{2048, 2, 1}));
}

TEST(LaunchConfig, OverrideErrorsNameTheProblem) {
  LaunchOverride o;
  o.grid = {"a * 2"};  // a is a float
  auto d = launch_dims(capture(), params(), o);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("'a' is not an integer parameter"), std::string::npos) << d.error().message;
  o.grid = {"p.n"};
  d = launch_dims(capture(), params(), o);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("field of a struct parameter"), std::string::npos);
  o.grid = {"n - n"};
  d = launch_dims(capture(), params(), o);
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("gives 0"), std::string::npos);
  o.grid = {"1", "2"};
  EXPECT_FALSE(launch_dims(capture(), params(), o));
}

TEST(LaunchConfig, StructFieldsFromTheCapturedBytes) {
  // struct Shape { int rows; int cols; float eps; } passed by value.
  ParamSpec shape{"s", ParamKind::Record, 12, "Shape", false, {}};
  shape.fields = {{"rows", "int", 0, 4}, {"cols", "int", 4, 4}, {"eps", "float", 8, 4}};
  Capture c;
  c.id = "c2";
  c.launch.grid = {64, 1, 1};
  c.launch.block = {128, 1, 1};
  c.args = {{"s", ParamKind::Record, i32(16384) + i32(1024) + f32(1e-5f), std::nullopt, 0}};
  LaunchOverride o;
  o.grid = {"s.rows"};
  o.block = {"min(s.cols, 256)"};
  auto d = launch_dims(c, {shape}, o);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->grid, (Dim3{16384, 1, 1}));
  EXPECT_EQ(d->block, (Dim3{256, 1, 1}));
  o.block = {"s.eps"};  // a float field is no launch dimension
  EXPECT_FALSE(launch_dims(c, {shape}, o));
  o.block = {"s.depth"};
  EXPECT_FALSE(launch_dims(c, {shape}, o));
}

TEST(LaunchConfig, DeviceLimits) {
  DeviceLimits l;
  EXPECT_TRUE(check_limits({{1, 1, 1}, {1024, 1, 1}, 0, false}, l));
  auto big = check_limits({{1, 1, 1}, {2048, 1, 1}, 0, false}, l);
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("2048 threads exceeds the device's 1024"), std::string::npos);
  EXPECT_FALSE(check_limits({{1, 70000, 1}, {32, 1, 1}, 0, false}, l));
  EXPECT_FALSE(check_limits({{1, 1, 1}, {32, 1, 1}, 300 * 1024, false}, l));
}

TEST(LaunchConfig, ArgumentsCheckedAndPacked) {
  EXPECT_TRUE(check_args(capture(), params()));
  auto p = params();
  p[0].size = 8;
  EXPECT_FALSE(check_args(capture(), p));
  p = params();
  p.pop_back();
  EXPECT_FALSE(check_args(capture(), p));

  KernelArgs args(capture(), {0x1000, 0x2000}, {{1, f32(3.0f)}});
  void** ptrs = args.pointers();
  int32_t n;
  std::memcpy(&n, ptrs[0], 4);
  EXPECT_EQ(n, 1 << 20);
  float a;
  std::memcpy(&a, ptrs[1], 4);
  EXPECT_EQ(a, 3.0f);  // replaced (fuzzed) scalar
  uint64_t x, y;
  std::memcpy(&x, ptrs[2], 8);
  std::memcpy(&y, ptrs[3], 8);
  EXPECT_EQ(x, 0x1000u);
  EXPECT_EQ(y, 0x2000u + 64);  // the pointer's offset inside its allocation is kept
  EXPECT_EQ(integer_scalar(capture().args[0], params()[0]), 1 << 20);
  EXPECT_FALSE(integer_scalar(capture().args[1], params()[1]));
}

}  // namespace
}  // namespace stark::harness
