#include "harness/worker/other_size.h"

#include <gtest/gtest.h>

#include <cstring>

namespace stark::harness {
namespace {

std::string i32(int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }
std::string u64(uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }
std::string f32(float v) { return std::string(reinterpret_cast<const char*>(&v), 4); }
int32_t as_i32(const std::string& b) {
  int32_t v;
  std::memcpy(&v, b.data(), 4);
  return v;
}

CapturedArg scalar(const std::string& name, std::string bytes) {
  return {name, ParamKind::Scalar, std::move(bytes), std::nullopt, 0};
}
CapturedArg pointer(const std::string& name, int buffer, uint64_t offset = 0) {
  return {name, ParamKind::Pointer, "", buffer, offset};
}
ParamSpec spec(const std::string& name, ParamKind kind, int64_t size, const std::string& type, bool is_const = false) {
  return {name, kind, size, type, is_const, {}};
}

TEST(OtherSize, SmallerValuesKeepAlignmentAndStayBelow) {
  EXPECT_EQ(smaller_size_value(4194304), 3145728);  // a multiple of 4096 below 3/4
  EXPECT_EQ(smaller_size_value(2048), 1536);
  EXPECT_EQ(smaller_size_value(1000), 744);  // keeps the factor 8
  EXPECT_EQ(smaller_size_value(3), 2);
  EXPECT_EQ(smaller_size_value(2), 1);
  EXPECT_EQ(smaller_size_value(1), 1);  // nothing smaller
  for (int64_t v = 2; v < 5000; ++v) {
    int64_t s = smaller_size_value(v);
    ASSERT_GE(s, 1);
    ASSERT_LT(s, v);
    int64_t pow2 = v & -v;
    // Vector widths up to 16 elements stay aligned wherever a smaller aligned value exists.
    if (v >= 128) {
      ASSERT_EQ(s % std::min<int64_t>(pow2, 16), 0) << v;
    }
  }
}

// saxpy(n, a, x, y) on 4 Mi floats, 256 threads a block: n shrinks, the grid follows.
TEST(OtherSize, ElementwiseKernelShrinksNAndItsGrid) {
  Capture c;
  c.launch.grid = {16384, 1, 1};
  c.launch.block = {256, 1, 1};
  c.args = {scalar("n", i32(4194304)), scalar("a", f32(2.0f)), pointer("x", 0), pointer("y", 1)};
  c.buffers = {{4194304 * 4, "f32", "device", "h", "h"}, {4194304 * 4, "f32", "device", "h", "h"}};
  std::vector<ParamSpec> p = {spec("n", ParamKind::Scalar, 4, "int"), spec("a", ParamKind::Scalar, 4, "float"),
                              spec("x", ParamKind::Pointer, 8, "float", true),
                              spec("y", ParamKind::Pointer, 8, "float")};
  auto o = other_size(c, p);
  ASSERT_TRUE(o) << o.error().message;
  ASSERT_EQ(o->scalars.size(), 1u);
  EXPECT_EQ(as_i32(o->scalars.at(0)), 3145728);
  EXPECT_EQ(as_i32(o->capture.args[0].bytes), 3145728);
  EXPECT_EQ(o->capture.args[1].bytes, f32(2.0f));  // floats are never sizes
  EXPECT_EQ(o->original_dims.grid, (Dim3{12288, 1, 1}));
  EXPECT_EQ(o->describe, "n 4194304 -> 3145728, grid.x 16384 -> 12288");
}

// matmul(n, A, B, C) with n*n buffers, 2-D blocks of 16x16.
TEST(OtherSize, SquareExtentsMakeNASize) {
  Capture c;
  c.launch.grid = {128, 128, 1};
  c.launch.block = {16, 16, 1};
  c.args = {scalar("n", i32(2048)), pointer("A", 0), pointer("B", 1), pointer("C", 2)};
  for (int b = 0; b < 3; ++b) c.buffers.push_back({2048ull * 2048 * 4, "f32", "device", "h", "h"});
  std::vector<ParamSpec> p = {spec("n", ParamKind::Scalar, 4, "int"), spec("A", ParamKind::Pointer, 8, "float", true),
                              spec("B", ParamKind::Pointer, 8, "float", true),
                              spec("C", ParamKind::Pointer, 8, "float")};
  auto o = other_size(c, p);
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(as_i32(o->scalars.at(0)), 1536);
  EXPECT_EQ(o->original_dims.grid, (Dim3{96, 96, 1}));
}

// A block per row, rows and cols as fields of a struct passed by value, 64-bit sizes.
TEST(OtherSize, StructFieldsAndWideIntegers) {
  Capture c;
  c.launch.grid = {8192, 1, 1};
  c.launch.block = {512, 1, 1};
  std::string shape = u64(8192) + u64(4096);
  c.args = {{"shape", ParamKind::Record, shape, std::nullopt, 0}, pointer("in", 0), pointer("out", 1)};
  c.buffers = {{8192ull * 4096 * 4, "f32", "device", "h", "h"}, {8192ull * 4096 * 4, "f32", "device", "h", "h"}};
  ParamSpec s = spec("shape", ParamKind::Record, 16, "Shape");
  s.fields = {{"rows", "unsigned long", 0, 8}, {"cols", "unsigned long", 8, 8}};
  std::vector<ParamSpec> p = {s, spec("in", ParamKind::Pointer, 8, "float", true),
                              spec("out", ParamKind::Pointer, 8, "float")};
  auto o = other_size(c, p);
  ASSERT_TRUE(o) << o.error().message;
  uint64_t rows = 0, cols = 0;
  std::memcpy(&rows, o->scalars.at(0).data(), 8);
  std::memcpy(&cols, o->scalars.at(0).data() + 8, 8);
  EXPECT_EQ(rows, 6144u);
  EXPECT_EQ(cols, 3072u);
  EXPECT_EQ(o->original_dims.grid, (Dim3{6144, 1, 1}));  // one block per row follows rows
  EXPECT_NE(o->describe.find("shape.rows 8192 -> 6144"), std::string::npos) << o->describe;
}

// A grid-stride loop on a fixed grid: the grid stays as it was.
TEST(OtherSize, FixedGridsStay) {
  Capture c;
  c.launch.grid = {264, 1, 1};
  c.launch.block = {256, 1, 1};
  c.args = {pointer("x", 0), scalar("n", i32(1 << 20))};
  c.buffers = {{4 << 20, "f32", "device", "h", "h"}};
  std::vector<ParamSpec> p = {spec("x", ParamKind::Pointer, 8, "float"), spec("n", ParamKind::Scalar, 4, "int")};
  auto o = other_size(c, p);
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->original_dims.grid, (Dim3{264, 1, 1}));
  EXPECT_EQ(o->describe, "n 1048576 -> 786432");
}

TEST(OtherSize, SaysWhyThereIsNone) {
  Capture c;
  c.launch.grid = {4, 1, 1};
  c.args = {scalar("seed", i32(1234)), pointer("x", 0)};
  c.buffers = {{4096, "f32", "device", "h", "h"}};
  std::vector<ParamSpec> p = {spec("seed", ParamKind::Scalar, 4, "int"), spec("x", ParamKind::Pointer, 8, "float")};
  auto o = other_size(c, p);
  ASSERT_FALSE(o);
  EXPECT_NE(o.error().message.find("no integer argument matches"), std::string::npos);

  c.args = {scalar("n", i32(1)), pointer("x", 0)};
  c.buffers = {{4, "f32", "device", "h", "h"}};
  p[0].name = "n";
  o = other_size(c, p);
  ASSERT_FALSE(o);
}

}  // namespace
}  // namespace stark::harness
