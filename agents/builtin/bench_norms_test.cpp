// The benchmark suite's normalisation layers (a real clang parse of
// bench/src/kb/reductions): each is walked by one thread per statistic in
// the naive form, and block-per-row is what they call for. Each variant
// passes the variant check and builds with nvcc.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "agents/builtin/scanned_kernels_test.h"
#include "clang_tool/variant_check.h"
#include "harness/compile/compile_service.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

using BenchNorms = testing::ScannedKernels<testing::BenchProject>;

// Instance norm keeps Welford's mean and variance per plane; batch norm walks
// a channel's plane in every sample (a nest of loops); group norm's output
// loop is a nest over a group's channels.
TEST_F(BenchNorms, EachNormalisationIsOfferedABlockPerRowThatBuilds) {
  BuiltinTeam team(manifest_->source_root, setup());
  ClangVariantValidator validator(setup(), manifest_->source_root);
  harness::CompileService compiler({fs::temp_directory_path() / "stark_bench_norms_test_cache", 0, STARK_NVCC_PATH});
  for (const char* id : {"src/kb/reductions/instance_norm.cu:bench::kb::instance_norm_kernel",
                         "src/kb/reductions/batch_norm.cu:bench::kb::batch_norm_kernel",
                         "src/kb/reductions/group_norm.cu:bench::kb::group_norm_kernel"}) {
    const Kernel& k = kernel(id);
    auto options = team.options(k, source(k), {}, testing::kH200);
    ASSERT_TRUE(options) << id << ": " << options.error().message;
    auto first = std::find_if(options->begin(), options->end(),
                              [](const std::string& label) { return label.rfind("block-per-row", 0) == 0; });
    ASSERT_NE(first, options->end()) << id << " offered " << ::testing::PrintToString(*options);
    auto v = code(team, k, *first);
    ASSERT_TRUE(v.value) << id << " " << *first << ": " << v.value.error().message;
    auto valid = validator.validate(k, *v.value);
    EXPECT_TRUE(valid) << id << ": " << valid.error().message << "\n" << v.value->source;
    auto built = compiler.compile(
        {&k, manifest_->source_root, v.value->source, "90", harness::CompileMode::Cubin, std::nullopt});
    ASSERT_TRUE(built) << built.error().message;
    EXPECT_TRUE(built->ok) << id << " " << *first << ":\n" << built->log << "\n" << v.value->source;
  }
}

}  // namespace
}  // namespace stark
