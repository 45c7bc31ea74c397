// The built-in expert on the example project's naive kernels (fixture
// nnops): each kernel gets the strategy made for its pattern, and every
// strategy's output passes the clang variant check and compiles with nvcc
// for sm_90 and for the project's own architectures.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <map>
#include <set>
#include <tuple>

#include "agents/builtin/builtin_team.h"
#include "agents/context_windows.h"
#include "agents/builtin/catalogue.h"
#include "agents/builtin/scanned_kernels_test.h"
#include "clang_tool/scan.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/variant_check.h"
#include "core/file_io.h"
#include "harness/compile/compile_service.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

using Strategies = testing::ScannedKernels<testing::Nnops>;
using testing::kH200;

/// A search tree of the kernel as written (with the profile given) and the
/// plan role's window on its root.
struct RootWindow {
  SearchTree tree;
  KernelBrief brief;
  RootWindow(const Kernel& k, const std::string& source, const ProfileFacts& profile = {})
      : tree([&] {
          SearchNode root;
          root.variant = Variant{"", source, {}};
          root.profile = profile;
          return root;
        }()) {
    brief.kernel = &k;
    brief.source = source;
    brief.gpu = kH200;
  }
  PlanInput plan() const { return plan_window(tree, 0, brief, 3); }
};

TEST_F(Strategies, EachNaiveKernelGetsItsPattern) {
  BuiltinTeam team(manifest_->source_root, setup());
  std::map<std::string, std::string> expected = {
      {"src/reduce.cu:nnops::reduce_sum_kernel", "block-reduce("},
      {"src/histogram.cu:nnops::histogram_kernel", "privatize("},
      {"src/softmax.cu:nnops::softmax_rows_kernel", "block-per-row("},
      {"src/layernorm.cu:nnops::layer_norm_kernel", "block-per-row("},
      {"src/transpose.cu:nnops::transpose_kernel", "tile-transpose("},
      {"src/matmul.cu:nnops::matmul_kernel", "tile-matmul("},
      {"src/elementwise.cu:nnops::saxpy_kernel", "vectorize("},
      {"include/nnops/detail/activation.cuh:nnops::detail::relu_kernel", "vectorize("}};
  for (const auto& [id, first] : expected) {
    const Kernel& k = kernel(id);
    auto options = team.options(k, source(k), {}, kH200);
    ASSERT_TRUE(options) << id << ": " << options.error().message;
    ASSERT_FALSE(options->empty()) << id;
    EXPECT_EQ(options->front().rfind(first, 0), 0u) << id << " starts with " << options->front();
  }
}

// The profile ranks the options: with nothing measured the order is the
// catalogue's; facts that name a limiter bring what eases it to the front of
// its group (structural first, then polish), and the plan's instruction says why.
TEST_F(Strategies, TheNodesProfileRanksWhatEasesItsLimiterFirst) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  auto plain = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(plain && !plain->empty());
  EXPECT_EQ(*team.options(k, source(k), {}, kH200, {}, ProfileFacts{}), *plain);

  auto at = [](const std::vector<std::string>& labels, const std::string& label) {
    return std::find(labels.begin(), labels.end(), label) - labels.begin();
  };
  ProfileFacts starved;  // few warps resident, far from the roof
  starved.resources = {{"k", 64, 0, 0}};
  starved.occupancy = 0.25;
  starved.roof_share = 0.2;
  starved.achieved_gbs = 800;
  auto ranked = team.options(k, source(k), {}, kH200, {}, starved);
  ASSERT_TRUE(ranked);
  ASSERT_EQ(ranked->size(), plain->size());
  // A register cap eases occupancy; __restrict__ does not: in the catalogue's
  // order restrict comes first, for this node the cap does.
  ASSERT_LT(at(*plain, "restrict()"), at(*plain, "max-registers(registers=64)")) << ::testing::PrintToString(*plain);
  EXPECT_LT(at(*ranked, "max-registers(registers=64)"), at(*ranked, "restrict()")) << ::testing::PrintToString(*ranked);
  EXPECT_EQ(ranked->front(), plain->front()) << "the structural group stays ahead of the polish";
  RootWindow window(k, source(k), starved);
  PlanInput in = window.plan();
  for (size_t i = 0; i < ranked->size(); ++i) {
    in.proposal = static_cast<int>(i);
    auto plan = team.plan(in);
    ASSERT_TRUE(plan.value) << plan.value.error().message;
    EXPECT_EQ(plan.value->strategy, (*ranked)[i]);
    if (plan.value->strategy == "max-registers(registers=64)") {
      EXPECT_NE(plan.value->grounded.find("(eases occupancy: occupancy 25% at 64 registers)"), std::string::npos)
          << plan.value->grounded;
    }
  }
}

// The budget goes to new ideas first: a family the search has tried on some
// other node moves behind every family it has not, each part in its order.
TEST_F(Strategies, AFamilyTriedElsewhereInTheTreeComesAfterTheUntriedOnes) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  auto all = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(all && all->size() >= 3) << ::testing::PrintToString(*all);
  RootWindow window(k, source(k));
  PlanInput in = window.plan();
  auto family = [](const std::string& label) { return label.substr(0, label.find('(')); };
  const std::string first = family(all->front());
  in.tried = {all->front(), "some LLM's words, not a label"};
  std::vector<std::string> planned;
  for (size_t i = 0; i < all->size(); ++i) {
    in.proposal = static_cast<int>(i);
    auto plan = team.plan(in);
    ASSERT_TRUE(plan.value) << plan.value.error().message;
    planned.push_back(plan.value->strategy);
  }
  // One plan past the last option: nothing left, which is no failure.
  in.proposal = static_cast<int>(all->size());
  auto past = team.plan(in);
  EXPECT_FALSE(past.value);
  EXPECT_TRUE(past.nothing_left);
  // Nothing lost, nothing added: the same options, the tried family last.
  EXPECT_EQ(std::multiset<std::string>(planned.begin(), planned.end()),
            std::multiset<std::string>(all->begin(), all->end()));
  auto first_tried = std::find_if(planned.begin(), planned.end(), [&](const auto& l) { return family(l) == first; });
  ASSERT_NE(first_tried, planned.end());
  EXPECT_TRUE(std::all_of(first_tried, planned.end(), [&](const auto& l) { return family(l) == first; }))
      << ::testing::PrintToString(planned);
  EXPECT_NE(family(planned.front()), first);
}

TEST_F(Strategies, EveryOptionValidatesAndCompiles) {
  BuiltinTeam team(manifest_->source_root, setup());
  ClangVariantValidator validator(setup(), manifest_->source_root);
  harness::CompileService compiler({fs::temp_directory_path() / "stark_strategies_test_cache", 0, STARK_NVCC_PATH});
  int checked = 0;
  for (const auto& k : manifest_->kernels) {
    auto options = team.options(k, source(k), {}, kH200);
    ASSERT_TRUE(options) << k.id;
    std::set<std::string> seen_strategies;
    for (const auto& label : *options) {
      // One parameter set per strategy keeps the test to minutes.
      std::string name = label.substr(0, label.find('('));
      if (!seen_strategies.insert(name).second) continue;
      auto reply = code(team, k, label);
      ASSERT_TRUE(reply.value) << k.id << " " << label << ": " << reply.value.error().message;
      const Variant& v = *reply.value;
      auto valid = validator.validate(k, v);
      EXPECT_TRUE(valid) << k.id << " " << label << ": " << valid.error().message << "\n" << v.source;
      for (const std::string sm : {"90", "80"}) {
        auto built =
            compiler.compile({&k, manifest_->source_root, v.source, sm, harness::CompileMode::Cubin, std::nullopt});
        ASSERT_TRUE(built) << built.error().message;
        EXPECT_TRUE(built->ok) << k.id << " " << label << " sm_" << sm << ":\n" << built->log << "\n" << v.source;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 15);
}

TEST_F(Strategies, DebugBacksOffToTheNextParameters) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/softmax.cu:nnops::softmax_rows_kernel");
  KernelBrief brief;
  brief.kernel = &k;
  brief.gpu = kH200;
  SearchNode root;
  root.variant = Variant{k.id, source(k), {}};
  CodeInput in{&brief, &root, &root, {}, {}, Plan{"block-per-row(block=256)", "", {}}};
  auto first = team.code(in);
  ASSERT_TRUE(first.value);
  SearchNode failed;
  failed.id = 1;
  failed.parent = 0;
  failed.strategy = "block-per-row(block=256)";
  failed.variant = *first.value;
  failed.state = NodeState::Failed;
  DebugInput d{&brief, &failed, &root, {}};
  auto fix = team.debug(d);
  ASSERT_TRUE(fix.value) << fix.value.error().message;
  EXPECT_EQ(fix.value->launch.block.at(0), "512");
  EXPECT_FALSE(fix.nothing_left);

  // Every other block size already tried by a sibling: no repair is left,
  // which is no failure (the search counts no attempt for it).
  std::vector<SearchNode> tried(3);
  std::vector<const SearchNode*> siblings;
  for (int i = 0; i < 3; ++i) {
    tried[i].strategy = fmt::format("block-per-row(block={})", std::vector<int>{512, 128, 1024}[i]);
    siblings.push_back(&tried[i]);
  }
  DebugInput last{&brief, &failed, &root, &root, siblings};
  auto none = team.debug(last);
  EXPECT_FALSE(none.value);
  EXPECT_TRUE(none.nothing_left);
}

TEST_F(Strategies, ElementwiseKernelsGetOnlyTheElementwiseRewrite) {
  // saxpy has no loop, atomic or 2-D index: of the structural rewrites only
  // the vectorised one applies, and after it only polish.
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  auto options = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(options);
  EXPECT_GE(options->size(), 4u) << ::testing::PrintToString(*options);
  for (const auto& l : *options) {
    std::string name = l.substr(0, l.find('('));
    if (builtin::is_structural(*builtin::find_strategy(name))) {
      EXPECT_EQ(name, "vectorize") << l;
    }
  }
}

}  // namespace
}  // namespace stark
