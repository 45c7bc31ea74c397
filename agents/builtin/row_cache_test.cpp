// row-cache: a block-per-row kernel that reads its row in several passes
// keeps the row in registers after the first (fixture nnops).
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

using RowCacheStrategy = testing::ScannedKernels<testing::Nnops>;
using testing::count;
using testing::kH200;

std::string name_of(const std::string& id) { return id.substr(id.rfind(':') + 1); }

TEST_F(RowCacheStrategy, RowCacheKeepsTheRowInRegistersAcrossPasses) {
  BuiltinTeam team(manifest_->source_root, setup());
  // reads: subscripts of the row in the kernel's passes (layer norm's variance
  // pass reads it twice; softmax's sum pass stores its exponential over it).
  for (auto [id, block, reads] :
       {std::tuple{"src/softmax.cu:nnops::softmax_rows_kernel", "block-per-row(block=1024)", 4},
        {"src/layernorm.cu:nnops::layer_norm_kernel", "block-per-row(block=128)", 4}}) {
    const Kernel& k = kernel(id);
    auto original = team.options(k, source(k), {}, kH200);
    ASSERT_TRUE(original);
    for (const auto& l : *original) EXPECT_NE(l.rfind("row-cache", 0), 0u) << id << ": " << l;  // needs strided loops

    auto rows = code(team, k, block);
    ASSERT_TRUE(rows.value) << id << ": " << rows.value.error().message;
    auto options = team.options(k, rows.value->source, rows.value->launch, kH200);
    ASSERT_TRUE(options) << options.error().message;
    ASSERT_FALSE(options->empty());
    // float rows: 16-byte vectors first, the plain cache of the same size next.
    ASSERT_GE(options->size(), 2u);
    EXPECT_EQ((*options)[0], "row-cache(per_thread=8,vector=4)") << ::testing::PrintToString(*options);
    EXPECT_EQ((*options)[1], "row-cache(per_thread=8)") << ::testing::PrintToString(*options);
    // Sizes that leave a thread too few registers are not offered: at block
    // 1024 a thread has 64, so 16 cached elements are too many.
    bool wide = block == std::string("block-per-row(block=1024)");
    EXPECT_EQ(std::find(options->begin(), options->end(), "row-cache(per_thread=16,vector=4)") == options->end(), wide)
        << ::testing::PrintToString(*options);
    // With the captures' row lengths known, the K that holds the longest
    // row comes first; rows too long for registers keep the usual order.
    std::string bound = name_of(id) == "softmax_rows_kernel" ? "cols" : "shape.cols";
    for (auto [longest, first] : {std::pair{int64_t{2000}, block == std::string("block-per-row(block=128)")
                                                               ? "row-cache(per_thread=16,vector=4)"
                                                               : "row-cache(per_thread=2)"},
                                  {int64_t{1} << 20, "row-cache(per_thread=8,vector=4)"}}) {
      BuiltinTeam::Scalars scalars = {{{bound, 100}}, {{bound, longest}}};
      auto sized = team.options(k, rows.value->source, rows.value->launch, kH200, scalars);
      ASSERT_TRUE(sized && !sized->empty());
      EXPECT_EQ(sized->front(), first) << id << " " << longest << ": " << ::testing::PrintToString(*sized);
    }

    auto cached = code(team, k, "row-cache(per_thread=8)", &*rows.value, block);
    ASSERT_TRUE(cached.value) << id << ": " << cached.value.error().message;
    const Variant& v = *cached.value;
    EXPECT_EQ(v.launch.block, rows.value->launch.block);
    std::string name = name_of(id);
    // The load into the array, then every pass reads the array.
    EXPECT_EQ(count(v.source, fmt::format("stark_{}_row[stark_{}_k]", name, name)), static_cast<size_t>(1 + reads))
        << v.source;
    if (name == "softmax_rows_kernel") {  // once in the cached passes, twice in the tail loops
      EXPECT_EQ(count(v.source, "expf("), 3u) << v.source;
    }
    std::string ptx = ptx_of(k, v);
    ASSERT_FALSE(ptx.empty()) << id;
    EXPECT_EQ(ptx.find(".local"), std::string::npos) << id << ": the row array spilled to local memory";

    // In 16-byte groups: vector loads of the row and vector stores of the
    // output pass, still no spills.
    auto grouped = code(team, k, "row-cache(per_thread=8,vector=4)", &*rows.value, block);
    ASSERT_TRUE(grouped.value) << id << ": " << grouped.value.error().message;
    ptx = ptx_of(k, *grouped.value);
    ASSERT_FALSE(ptx.empty()) << id;
    EXPECT_NE(ptx.find("ld.global.v4"), std::string::npos) << id << ":\n" << ptx;
    EXPECT_NE(ptx.find("st.global.v4"), std::string::npos) << id << ":\n" << ptx;
    EXPECT_EQ(ptx.find(".local"), std::string::npos) << id << ": the row array spilled to local memory";
    // A width that does not fit the size or the element type is refused.
    for (const char* wrong : {"row-cache(per_thread=8,vector=8)", "row-cache(per_thread=2,vector=4)"})
      EXPECT_FALSE(code(team, k, wrong, &*rows.value, block).value) << wrong;

    // Then only polish is left, in the catalogue's order; the intrinsics
    // only where there is math (softmax's expf; layer norm has none).
    auto polish = team.options(k, v.source, v.launch, kH200);
    ASSERT_TRUE(polish && !polish->empty()) << id;
    for (const auto& l : *polish) EXPECT_NE(l.rfind("row-cache", 0), 0u) << id << ": " << l;
    bool fast = std::find(polish->begin(), polish->end(), "fast-math()") != polish->end();
    EXPECT_EQ(fast, name == "softmax_rows_kernel") << id << ": " << ::testing::PrintToString(*polish);
  }
}

}  // namespace
}  // namespace stark
