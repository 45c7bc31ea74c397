#include "harness/capture/annotation_inputs.h"
#include "tests/support/temp_dir.h"

#include <string>
#include <cstdint>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

namespace stark::harness {
namespace {

Kernel kernel() {
  Kernel k;
  k.id = "src/ops.cu:saxpy";
  k.name = "saxpy";
  Param n{"n", "int", ParamKind::Scalar, "", false, false, 4, 4, {}};
  Param a{"a", "float", ParamKind::Scalar, "", false, false, 4, 4, {}};
  Param x{"x", "const float *", ParamKind::Pointer, "float", true, false, 8, 8, {}};
  Param y{"y", "float *", ParamKind::Pointer, "float", false, false, 8, 8, {}};
  k.params = {n, a, x, y};
  k.instantiations = {{"_Z5saxpyifPKfPf", "", k.params}};
  k.options.args = "n=1000, a=2.5";
  k.options.buffers = "x[n], y[n + 24]";
  k.options.grid = "ceil_div(n, 256)";
  k.options.block = "256";
  return k;
}

// One folder for the whole binary, as the stores of all its tests share it.
CaptureStore store() {
  static const stark::testing::TempDir dir;
  return *CaptureStore::open(dir.path(), true);
}

TEST(AnnotationInputs, BuildsACapture) {
  auto s = store();
  auto c = capture_from_annotation(kernel(), s);
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->origin, "annotation");
  EXPECT_EQ(c->mangled, "_Z5saxpyifPKfPf");
  EXPECT_EQ(c->launch.grid, (Dim3{4, 1, 1}));
  EXPECT_EQ(c->launch.block, (Dim3{256, 1, 1}));
  ASSERT_EQ(c->args.size(), 4u);
  int32_t n;
  std::memcpy(&n, c->args[0].bytes.data(), 4);
  EXPECT_EQ(n, 1000);
  float a;
  std::memcpy(&a, c->args[1].bytes.data(), 4);
  EXPECT_EQ(a, 2.5f);
  ASSERT_EQ(c->buffers.size(), 2u);
  EXPECT_EQ(c->buffers[0].size, 4000u);
  EXPECT_EQ(c->buffers[1].size, 4096u);
  EXPECT_EQ(c->buffers[1].dtype, "f32");
  EXPECT_FALSE(c->buffers[0].after);  // the original's own output is the reference
  EXPECT_TRUE(s.get_blob(c->buffers[0].before));
  // Same annotation, same capture id (the store keeps one).
  auto again = capture_from_annotation(kernel(), s);
  EXPECT_EQ(again->id, c->id);
  EXPECT_TRUE(has_annotation_inputs(kernel()));
}

TEST(AnnotationInputs, ErrorsNameTheKernelAndTheKey) {
  auto s = store();
  auto k = kernel();
  k.options.args = "a=2.5";
  auto e = capture_from_annotation(k, s);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error().message, "kernel src/ops.cu:saxpy: args= gives no value for parameter 'n' (add n=...)");
  k = kernel();
  k.options.buffers = "x[n]";
  e = capture_from_annotation(k, s);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("no size for pointer parameter 'y'"), std::string::npos);
  k = kernel();
  k.options.grid.reset();
  e = capture_from_annotation(k, s);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("no grid="), std::string::npos);
  k = kernel();
  k.options.args = "n=1000, a=2.5, m=3";
  EXPECT_FALSE(capture_from_annotation(k, s));
}

TEST(AnnotationInputs, Hint) {
  EXPECT_EQ(annotation_hint(kernel()),
            "STARK_OPTIMIZE(\"args=n=..., a=...\", \"buffers=x[count], y[count]\", \"grid=...\", \"block=...\")");
}

}  // namespace
}  // namespace stark::harness
