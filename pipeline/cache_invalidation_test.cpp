// Incremental runs end to end on real parses: scan
// tests/projects/incremental with clang, run the pipeline with the result
// cache (simulated GPU and team, the real clang variant check on cached
// winners), edit one thing, scan again: exactly the kernels that depend on
// the edit are searched again, every other one is a re-verified hit.
#include <gtest/gtest.h>

#include <map>

#include "agents/testing/simulated.h"
#include "cache/result_cache.h"
#include "clang_tool/scan.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/variant_check.h"
#include "pipeline/optimize.h"
#include "tests/support/incremental_project.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

class CacheInvalidation : public ::testing::Test {
 protected:
  void SetUp() override {
    auto setup = locate_clang_setup();
    ASSERT_TRUE(setup) << setup.error().message;
    setup_ = *setup;
  }

  /// Scans the project as it is now and optimizes it; kernel id -> cache state.
  std::map<std::string, CacheState> run() {
    ScanOptions so;
    so.jobs = 2;
    Manifest m = scan_units(project_.units(), setup_, project_.root(), so).manifest;
    m.build_dir = (project_.root() / "build").string();
    for (const auto& d : m.diagnostics) ADD_FAILURE() << d.format();
    testing::SimulatedEvaluator evaluator;
    testing::ScriptedTeam team;
    ClangVariantValidator validator(setup_, m.source_root);
    OptimizeOptions o;
    o.out_dir = project_.root() / "build/stark" / std::to_string(++runs_);
    o.budget = 1;
    o.parallel = 2;
    o.cache.cache = &cache_;
    auto r = run_optimize(m, evaluator, validator, team, nullptr, o);
    std::map<std::string, CacheState> out;
    EXPECT_TRUE(r) << r.error().message;
    if (!r) return out;
    for (const auto& k : r->kernels) out[k.id] = k.cache;
    return out;
  }

  /// The ids searched again (cache miss) in a run after the first.
  std::vector<std::string> searched_again() {
    std::vector<std::string> out;
    for (const auto& [id, state] : run()) {
      if (state == CacheState::Miss) out.push_back(id);
      else EXPECT_EQ(state, CacheState::Hit) << id;
    }
    return out;
  }

  using Ids = std::vector<std::string>;
  testing::IncrementalProject project_{STARK_SOURCE_DIR,
                                       fs::path(STARK_BINARY_DIR) / "pipeline/cache-scratch" /
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name(),
                                       STARK_NVCC_PATH};
  ResultCache cache_{project_.root() / "build/.stark/cache"};
  ClangSetup setup_;
  int runs_ = 0;
};

TEST_F(CacheInvalidation, EditsInvalidateExactlyTheKernelsThatDependOnThem) {
  auto first = run();
  ASSERT_EQ(first.size(), 7u);
  for (const auto& [id, state] : first) EXPECT_EQ(state, CacheState::Miss) << id;
  EXPECT_EQ(searched_again(), Ids{}) << "nothing changed";

  project_.edit("include/inc/common.cuh", "return x * x;", "return x * x * 1.0f;");  // a helper's helper
  EXPECT_EQ(searched_again(), Ids{"src/ops.cu:k_square"});
  project_.edit("include/inc/common.cuh", "#define TILE 128", "#define TILE 64");  // a macro in a header
  EXPECT_EQ(searched_again(), Ids{"src/ops.cu:k_tile"});
  project_.other_flags = {"-DOTHER_SCALE=3"};  // a compile flag of one unit
  EXPECT_EQ(searched_again(), Ids{"src/other.cu:k_other"});
  project_.edit("src/ops.cu", "if (i < n) y[i] = twice(y[i]);", "if (i < n) y[i] = twice(y[i]) + 0.0f;");  // a kernel
  EXPECT_EQ(searched_again(), Ids{"src/ops.cu:k_twice"});
  project_.edit("include/inc/common.cuh", "return x + 1.0f;", "return x + 2.0f;");  // used by nobody
  EXPECT_EQ(searched_again(), Ids{});
}

}  // namespace
}  // namespace stark
