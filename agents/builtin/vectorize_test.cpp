// vectorize: an elementwise kernel (each thread one element, every pointer
// indexed by that element) loads and stores 16-byte vectors (fixture nnops).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "agents/builtin/scanned_kernels_test.h"

namespace stark {
namespace {

using VectorizeStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

TEST_F(VectorizeStrategy, UnrecognisedKernelsAreLeftAlone) {
  // A kernel that reads a neighbour (x[i + 1]) is not elementwise: no
  // vectorised rewrite, which would read past its own four elements.
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  std::string neighbour = source(k);
  size_t at = neighbour.find("x[i]");
  ASSERT_NE(at, std::string::npos);
  neighbour.replace(at, 4, "x[i + 1]");
  auto options = team.options(k, neighbour, {}, kH200);
  ASSERT_TRUE(options) << options.error().message;
  for (const auto& l : *options) EXPECT_EQ(l.rfind("vectorize(", 0), std::string::npos) << l;
}

TEST_F(VectorizeStrategy, VectorizedKernelsUse128BitAccesses) {
  // The point of the rewrite is the wide load and store: check nvcc made them.
  BuiltinTeam team(manifest_->source_root, setup());
  for (const char* id :
       {"src/elementwise.cu:nnops::saxpy_kernel", "include/nnops/detail/activation.cuh:nnops::detail::relu_kernel"}) {
    const Kernel& k = kernel(id);
    auto v = code(team, k, "vectorize(block=256)");
    ASSERT_TRUE(v.value) << id << ": " << v.value.error().message;
    std::string ptx = ptx_of(k, *v.value);
    EXPECT_NE(ptx.find("ld.global.v4"), std::string::npos) << id << ": no 128-bit load\n" << v.value->source;
    EXPECT_NE(ptx.find("st.global.v4"), std::string::npos) << id << ": no 128-bit store\n" << v.value->source;
  }
}

// Only code counts as a use: a comment that names the pointers (or says
// "return") is no other use of them and no early return.
TEST_F(VectorizeStrategy, ACommentNamingThePointersIsNoUse) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  std::string commented = source(k);
  size_t at = commented.find("a * x[i] + y[i]");
  ASSERT_NE(at, std::string::npos);
  commented.insert(at + 8, " /* x scaled, then y added: never return y + 1 */");
  auto options = team.options(k, commented, {}, kH200);
  ASSERT_TRUE(options) << options.error().message;
  ASSERT_FALSE(options->empty());
  EXPECT_EQ(options->front(), "vectorize(block=256)") << ::testing::PrintToString(*options);
  Variant parent{k.id, commented, {}};
  auto v = code(team, k, "vectorize(block=256)", &parent, "unroll(factor=4)");
  ASSERT_TRUE(v.value) << v.value.error().message;
  EXPECT_NE(ptx_of(k, *v.value).find("ld.global.v4"), std::string::npos);
}

// The element index is declared with the type clang deduced: `auto i = ...`
// becomes `unsigned int i` in the rewrite (`static_cast<auto>` is no C++).
TEST_F(VectorizeStrategy, AnAutoIndexKeepsItsDeducedType) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  std::string deduced = source(k);
  size_t at = deduced.find("int i = ");
  ASSERT_NE(at, std::string::npos);
  deduced.replace(at, 3, "auto");
  Variant parent{k.id, deduced, {}};
  auto v = code(team, k, "vectorize(block=256)", &parent, "unroll(factor=4)");
  ASSERT_TRUE(v.value) << v.value.error().message;
  EXPECT_NE(v.value->source.find("unsigned int i = static_cast<unsigned int>("), std::string::npos) << v.value->source;
  EXPECT_FALSE(ptx_of(k, *v.value).empty());
}

}  // namespace
}  // namespace stark
