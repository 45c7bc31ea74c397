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

struct Nnops {
  static constexpr const char* kBuild = "nnops-build";
  static constexpr const char* kTarget = "nnops";
};
using Strategies = testing::ScannedKernels<Nnops>;
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

// A plan names the parameters, so they are checked: a shared table past what
// a block can hold (or none at all) is refused, not built into a launch that fails.
TEST_F(Strategies, APrivatisedTableOutsideSharedMemoryIsRefused) {
  BuiltinTeam team(manifest_->source_root, setup());
  const Kernel& k = kernel("src/histogram.cu:nnops::histogram_kernel");
  ASSERT_TRUE(code(team, k, "privatize(block=512,blocks_per_sm=4,ilp=1,bins=1024)").value);
  for (const char* bins : {"100000000", "0", "-4"}) {
    auto reply = code(team, k, fmt::format("privatize(block=512,blocks_per_sm=4,ilp=1,bins={})", bins));
    ASSERT_FALSE(reply.value) << bins;
    EXPECT_NE(reply.value.error().message.find("is not from 1 to 12288"), std::string::npos)
        << reply.value.error().message;
  }
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

TEST_F(Strategies, UnrecognisedKernelsAreLeftAlone) {
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

TEST_F(Strategies, VectorizedKernelsUse128BitAccesses) {
  // The point of the rewrite is the wide load and store: check nvcc made them.
  BuiltinTeam team(manifest_->source_root, setup());
  harness::CompileService compiler({fs::temp_directory_path() / "stark_strategies_test_cache", 0, STARK_NVCC_PATH});
  for (const char* id :
       {"src/elementwise.cu:nnops::saxpy_kernel", "include/nnops/detail/activation.cuh:nnops::detail::relu_kernel"}) {
    const Kernel& k = kernel(id);
    auto v = code(team, k, "vectorize(block=256)");
    ASSERT_TRUE(v.value) << id << ": " << v.value.error().message;
    auto built =
        compiler.compile({&k, manifest_->source_root, v.value->source, "90", harness::CompileMode::Ptx, std::nullopt});
    ASSERT_TRUE(built && built->ok) << id << ":\n" << (built ? built->log : built.error().message);
    auto text = read_file(built->output);
    ASSERT_TRUE(text);
    EXPECT_NE(text->find("ld.global.v4"), std::string::npos) << id << ": no 128-bit load\n" << v.value->source;
    EXPECT_NE(text->find("st.global.v4"), std::string::npos) << id << ": no 128-bit store\n" << v.value->source;
  }
}

TEST_F(Strategies, GridStrideLoopsKeepFourElementsInFlight) {
  BuiltinTeam team(manifest_->source_root, setup());
  harness::CompileService compiler({fs::temp_directory_path() / "stark_strategies_test_cache", 0, STARK_NVCC_PATH});
  const Kernel& k = kernel("src/reduce.cu:nnops::reduce_sum_kernel");
  auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  auto four = code(team, k, "block-reduce(block=256,blocks_per_sm=8,ilp=4)");
  ASSERT_TRUE(four.value) << four.value.error().message;
  // Four calls per pass and one in the tail loop.
  EXPECT_EQ(count(four.value->source, "stark_reduce_sum_kernel_element("), 5u) << four.value->source;
  auto built =
      compiler.compile({&k, manifest_->source_root, four.value->source, "90", harness::CompileMode::Ptx, std::nullopt});
  ASSERT_TRUE(built && built->ok) << (built ? built->log : built.error().message);
  auto ptx = read_file(built->output);
  ASSERT_TRUE(ptx);
  EXPECT_GE(count(*ptx, "ld.global"), 5u) << *ptx;

  // A plan written before the knob existed still applies, as the plain loop.
  auto plain = code(team, k, "block-reduce(block=256,blocks_per_sm=8)");
  ASSERT_TRUE(plain.value) << plain.value.error().message;
  EXPECT_EQ(count(plain.value->source, "_element("), 0u) << plain.value->source;
  EXPECT_NE(plain.value->source.find("+= gridDim.x * blockDim.x"), std::string::npos) << plain.value->source;
}

std::string name_of(const std::string& id) { return id.substr(id.rfind(':') + 1); }

TEST_F(Strategies, RowCacheKeepsTheRowInRegistersAcrossPasses) {
  BuiltinTeam team(manifest_->source_root, setup());
  ClangVariantValidator validator(setup(), manifest_->source_root);
  harness::CompileService compiler({fs::temp_directory_path() / "stark_strategies_test_cache", 0, STARK_NVCC_PATH});
  auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
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
    auto valid = validator.validate(k, v);
    EXPECT_TRUE(valid) << id << ": " << valid.error().message << "\n" << v.source;
    auto built =
        compiler.compile({&k, manifest_->source_root, v.source, "90", harness::CompileMode::Ptx, std::nullopt});
    ASSERT_TRUE(built && built->ok) << id << ":\n" << (built ? built->log : built.error().message) << "\n" << v.source;
    auto ptx = read_file(built->output);
    ASSERT_TRUE(ptx);
    EXPECT_EQ(ptx->find(".local"), std::string::npos) << id << ": the row array spilled to local memory";

    // In 16-byte groups: vector loads of the row and vector stores of the
    // output pass, still no spills.
    auto grouped = code(team, k, "row-cache(per_thread=8,vector=4)", &*rows.value, block);
    ASSERT_TRUE(grouped.value) << id << ": " << grouped.value.error().message;
    valid = validator.validate(k, *grouped.value);
    EXPECT_TRUE(valid) << id << ": " << valid.error().message << "\n" << grouped.value->source;
    built = compiler.compile(
        {&k, manifest_->source_root, grouped.value->source, "90", harness::CompileMode::Ptx, std::nullopt});
    ASSERT_TRUE(built && built->ok) << id << ":\n"
                                    << (built ? built->log : built.error().message) << "\n"
                                    << grouped.value->source;
    ptx = read_file(built->output);
    ASSERT_TRUE(ptx);
    EXPECT_NE(ptx->find("ld.global.v4"), std::string::npos) << id << ":\n" << *ptx;
    EXPECT_NE(ptx->find("st.global.v4"), std::string::npos) << id << ":\n" << *ptx;
    EXPECT_EQ(ptx->find(".local"), std::string::npos) << id << ": the row array spilled to local memory";
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

TEST_F(Strategies, TwoDimensionalKernelsGetWiderBlocks) {
  BuiltinTeam team(manifest_->source_root, setup());
  ClangVariantValidator validator(setup(), manifest_->source_root);
  const Kernel& k = kernel("src/transpose.cu:nnops::transpose_kernel");
  auto options = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(options);
  EXPECT_NE(std::find(options->begin(), options->end(), "block-shape(x=32,y=8)"), options->end())
      << ::testing::PrintToString(*options);
  auto wide = code(team, k, "block-shape(x=64,y=4)");
  ASSERT_TRUE(wide.value) << wide.value.error().message;
  EXPECT_EQ(wide.value->launch.block, (std::vector<std::string>{"64", "4", "1"}));
  EXPECT_EQ(wide.value->launch.grid.at(0), "ceil_div(grid.x * block.x, 64)");
  EXPECT_EQ(wide.value->launch.grid.at(1), "ceil_div(grid.y * block.y, 4)");
  auto valid = validator.validate(k, *wide.value);
  EXPECT_TRUE(valid) << (valid ? "" : valid.error().message);

  // 1-D kernels keep their shape.
  for (const char* id : {"src/elementwise.cu:nnops::saxpy_kernel", "src/reduce.cu:nnops::reduce_sum_kernel"}) {
    const Kernel& other = kernel(id);
    auto theirs = team.options(other, source(other), {}, kH200);
    ASSERT_TRUE(theirs);
    for (const auto& l : *theirs) EXPECT_NE(l.rfind("block-shape", 0), 0u) << id << ": " << l;
  }
}

TEST_F(Strategies, ReadOnlyLoadsFollowRestrictAndMaxRegistersCapsRegisters) {
  BuiltinTeam team(manifest_->source_root, setup());
  ClangVariantValidator validator(setup(), manifest_->source_root);
  harness::CompileService compiler({fs::temp_directory_path() / "stark_strategies_test_cache", 0, STARK_NVCC_PATH});
  const Kernel& k = kernel("src/elementwise.cu:nnops::saxpy_kernel");
  auto ptx_of = [&](const Variant& v) -> std::string {
    auto valid = validator.validate(k, v);
    EXPECT_TRUE(valid) << (valid ? "" : valid.error().message) << "\n" << v.source;
    auto built =
        compiler.compile({&k, manifest_->source_root, v.source, "90", harness::CompileMode::Ptx, std::nullopt});
    EXPECT_TRUE(built && built->ok) << (built ? built->log : built.error().message) << "\n" << v.source;
    if (!built || !built->ok) return "";
    auto ptx = read_file(built->output);
    return ptx ? *ptx : "";
  };
  auto root = team.options(k, source(k), {}, kH200);
  ASSERT_TRUE(root);
  for (const auto& l : *root) EXPECT_NE(l, "ldg()") << "no __restrict__ yet: the read-only path could see a write";

  auto restricted = code(team, k, "restrict()");
  ASSERT_TRUE(restricted.value) << restricted.value.error().message;
  auto after = team.options(k, restricted.value->source, restricted.value->launch, kH200);
  ASSERT_TRUE(after);
  ASSERT_NE(std::find(after->begin(), after->end(), "ldg()"), after->end()) << ::testing::PrintToString(*after) << "\n"
                                                                            << restricted.value->source;
  auto loads = code(team, k, "ldg()", &*restricted.value, "restrict()");
  ASSERT_TRUE(loads.value) << loads.value.error().message;
  EXPECT_NE(loads.value->source.find("__ldg(&x["), std::string::npos) << loads.value->source;
  EXPECT_EQ(loads.value->source.find("__ldg(&y["), std::string::npos) << "y is written: " << loads.value->source;
  EXPECT_NE(ptx_of(*loads.value).find("ld.global.nc"), std::string::npos);

  auto capped = code(team, k, "max-registers(registers=32)");
  ASSERT_TRUE(capped.value) << capped.value.error().message;
  EXPECT_NE(capped.value->source.find("__maxnreg__(32)"), std::string::npos);
  EXPECT_NE(ptx_of(*capped.value).find(".maxnreg 32"), std::string::npos);
}

}  // namespace
}  // namespace stark
