#include "pipeline/input_summary.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "harness/store/capture_store.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

template <typename T>
std::string bytes_of(T v) {
  std::string b(sizeof v, '\0');
  std::memcpy(b.data(), &v, sizeof v);
  return b;
}

harness::Capture softmax_capture(const std::string& id, int rows, int cols, const std::string& blob) {
  harness::Capture c;
  c.id = id;
  c.kernel = "src/softmax.cu:softmax";
  c.mangled = "_Z7softmaxiiPKfPf";
  c.launch.grid = {static_cast<uint32_t>(rows), 1, 1};
  c.launch.block = {256, 1, 1};
  c.shape = id;
  using Kind = ParamKind;
  c.args = {{"rows", Kind::Scalar, bytes_of(int32_t{rows}), std::nullopt, 0},
            {"cols", Kind::Scalar, bytes_of(int32_t{cols}), std::nullopt, 0},
            {"scale", Kind::Scalar, bytes_of(0.5f), std::nullopt, 0},
            {"n", Kind::Scalar, bytes_of(uint64_t{1} << 40), std::nullopt, 0},
            {"x", Kind::Pointer, "", 0, 0},
            {"shape", Kind::Record, bytes_of(int32_t{rows}) + bytes_of(int32_t{cols}), std::nullopt, 0}};
  c.buffers = {{4096, "f32", "device", blob, blob}};
  return c;
}

Kernel softmax_kernel() {
  Kernel k;
  k.id = "src/softmax.cu:softmax";
  Instantiation inst;
  inst.mangled = "_Z7softmaxiiPKfPf";
  for (const char* t : {"int", "int", "float", "unsigned long", "const float *", "Shape"}) {
    Param p;
    p.type = t;
    inst.params.push_back(p);
  }
  inst.params.back().kind = ParamKind::Record;
  inst.params.back().fields = {{"rows", "int", 0, 4}, {"cols", "int", 4, 4}};
  k.instantiations.push_back(inst);
  return k;
}

TEST(DescribeInputs, GivesALinePerCaptureAndTheIntegerScalarsOfEvery) {
  TempDir tmp;
  const fs::path& dir = tmp.path();
  auto store = harness::CaptureStore::open(dir, true);
  ASSERT_TRUE(store) << store.error().message;
  auto blob = store->put_blob("rows");
  ASSERT_TRUE(blob);
  ASSERT_TRUE(store->update([&](harness::CaptureIndex& index) -> Expected<void> {
    index.captures.push_back(softmax_capture("c1", 8192, 4096, *blob));
    index.captures.push_back(softmax_capture("c2", 3, 1000, *blob));
    return {};
  }));

  auto in = describe_inputs(dir, softmax_kernel(), /*max_lines=*/1);
  ASSERT_EQ(in.lines.size(), 1u);  // lines are capped, the scalars are not
  EXPECT_NE(in.lines[0].find("rows=8192, cols=4096, scale=0.5"), std::string::npos) << in.lines[0];
  ASSERT_EQ(in.scalars.size(), 2u);
  EXPECT_EQ(in.scalars[0].at("cols"), 4096);
  EXPECT_EQ(in.scalars[1].at("rows"), 3);
  EXPECT_FALSE(in.scalars[0].count("scale"));  // a float sizes nothing
  EXPECT_EQ(in.scalars[0].at("n"), int64_t{1} << 40);
  EXPECT_EQ(in.scalars[1].at("shape.cols"), 1000);  // a struct's fields, by their path
  EXPECT_NE(in.lines[0].find("shape.rows=8192, shape.cols=4096"), std::string::npos) << in.lines[0];

  EXPECT_TRUE(describe_inputs(dir / "missing", softmax_kernel()).scalars.empty());
}

}  // namespace
}  // namespace stark
