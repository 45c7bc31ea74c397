// restrict(): __restrict__ on every pointer parameter that lacks it, placed
// by the parameter's name as clang reports it (fixture nnops).
#include <gtest/gtest.h>

#include <string>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using RestrictStrategy = testing::ScannedKernels<testing::Nnops>;

/// The kernel's source with its parameter list's `from` spelled `to`.
std::string respelled(std::string source, const std::string& from, const std::string& to) {
  auto at = source.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) source.replace(at, from.size(), to);
  return source;
}

TEST_F(RestrictStrategy, MarksEveryPointerThatLacksIt) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  auto out = code(team, k, "restrict()");
  ASSERT_TRUE(out.value) << out.value.error().message;
  EXPECT_NE(out.value->source.find("const float* __restrict__ x, float* __restrict__ y"), std::string::npos)
      << out.value->source;
  EXPECT_FALSE(ptx_of(k, *out.value).empty());
}

// A const pointer (`float* const y`) takes __restrict__ after its const; a
// pointer already restricted is left as it is.
TEST_F(RestrictStrategy, GoesAfterTheDeclaratorsQualifiers) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  Variant parent{
      k.id, respelled(source(k), "const float* x, float* y", "const float* __restrict__ x, float* const y"), {}};
  auto out = code(team, k, "restrict()", &parent, "restrict()");
  ASSERT_TRUE(out.value) << out.value.error().message;
  EXPECT_NE(out.value->source.find("const float* __restrict__ x, float* const __restrict__ y"), std::string::npos)
      << out.value->source;
  EXPECT_FALSE(ptx_of(k, *out.value).empty());
}

// `const float x[]` is a pointer parameter too, but __restrict__ cannot go
// before its name: the strategy says so instead of writing code nvcc rejects.
TEST_F(RestrictStrategy, AnArrayParameterIsRefusedWithAReason) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  Variant parent{k.id, respelled(source(k), "const float* x", "const float x[]"), {}};
  auto out = code(team, k, "restrict()", &parent, "block-size(block=128)");
  ASSERT_FALSE(out.value) << out.value->source;
  EXPECT_NE(out.value.error().message.find("cannot find parameter 'x' after a '*'"), std::string::npos)
      << out.value.error().message;
}

}  // namespace
}  // namespace stark
