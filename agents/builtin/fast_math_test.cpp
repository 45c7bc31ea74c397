// fast-math: single-precision math calls with a fast intrinsic become that
// intrinsic (expf -> __expf); double precision, powf and tanhf stay
// (fixture nnops).
#include <gtest/gtest.h>

#include <string>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using FastMathStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::count;
using testing::kH200;

TEST_F(FastMathStrategy, TurnsSinglePrecisionCallsIntoIntrinsics) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/softmax.cu:nnops::softmax_rows_kernel");
  auto v = code(team, k, "fast-math()");
  ASSERT_TRUE(v.value) << v.value.error().message;
  EXPECT_EQ(count(v.value->source, "__expf("), 2u) << v.value->source;
  EXPECT_EQ(count(v.value->source, " expf("), 0u) << v.value->source;
  EXPECT_FALSE(ptx_of(k, *v.value).empty());
}

TEST_F(FastMathStrategy, KeepsCallsWithoutASafeIntrinsic) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/softmax.cu:nnops::softmax_rows_kernel");
  std::string mixed = source(k);
  auto at = mixed.find("sum += expf(in[c] - max_value);");
  ASSERT_NE(at, std::string::npos);
  mixed.replace(at, 31, "sum += powf(in[c], 2.0f) + tanhf(in[c]) + static_cast<float>(exp(double(in[c])));");
  Variant parent{k.id, mixed, {}};
  auto v = code(team, k, "fast-math()", &parent, "unroll(factor=4)");
  ASSERT_TRUE(v.value) << v.value.error().message;
  for (const char* kept : {"powf(", "tanhf(", "(exp(double"})
    EXPECT_NE(v.value->source.find(kept), std::string::npos) << kept << "\n" << v.value->source;
  EXPECT_EQ(count(v.value->source, "__expf("), 1u) << v.value->source;
  EXPECT_FALSE(ptx_of(k, *v.value).empty());
}

}  // namespace
}  // namespace stark
