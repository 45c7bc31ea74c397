// stark apply on results and manifests crafted to escape the project or to
// crash it, on a copy of tests/projects/edge: each case is an attack that
// worked before the check that now refuses it.
#include <gtest/gtest.h>

#include <sstream>

#include "core/file_io.h"
#include "rewriter/apply.h"
#include "rewriter/test_fixture.h"

namespace stark::rewriter {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace testing;  // the edge project's fixture: its kernels, results and requests

json row_mean_variant() {
  return json::array({improved(kRowMean,
                               "__global__ void row_mean(Shape s, const float* in, float* out) {\n"
                               "  // HOSTILE\n"
                               "}")});
}

Kernel& find(Manifest& m, const char* id) {
  for (auto& k : m.kernels)
    if (k.id == id) return k;
  ADD_FAILURE() << id;
  return m.kernels.front();
}

/// Moves row_mean (and its launch sites) to `path`, a copy of src/stats.cu with the same hash.
void point_row_mean_at(Manifest& m, const std::string& path) {
  m.files[path] = m.files.at("src/stats.cu");
  Kernel& k = find(m, kRowMean);
  k.file = path;
  for (auto& site : k.launches)
    if (site.file == "src/stats.cu") site.file = path;
}

std::string refusal(const ApplyReport& r, const std::string& id) {
  for (const auto& x : r.plan.refused)
    if (x.kernel == id) return x.message;
  return "";
}

// A result rewrote a file outside the project in place (with
// --no-compile-check --mode inplace); with an absolute path the "backup"
// was written over the target itself.
TEST(ApplyHostile, PathsOutsideTheSourceRootAreRefused) {
  auto [root, clean] = edge_copy("hostile_paths");
  const fs::path outside = root.parent_path() / "outside";
  fs::create_directories(outside);
  fs::copy_file(root / "src/stats.cu", outside / "stats.cu");
  fs::create_directory_symlink(outside, root / "src/escape");
  const std::string original = read(outside / "stats.cu");

  for (const std::string& path :
       {std::string("../outside/stats.cu"), (outside / "stats.cu").string(), std::string("src/escape/stats.cu")}) {
    Manifest m = clean;
    point_row_mean_at(m, path);
    auto req = request(result_dir("hostile_paths_result", m, row_mean_variant()), ApplyMode::Inplace);
    auto report = apply_result(req);
    ASSERT_TRUE(report) << path << ": " << report.error().message;
    EXPECT_TRUE(report->files_written.empty()) << path;
    EXPECT_NE(refusal(*report, kRowMean).find("the manifest's path '" + path + "'"), std::string::npos)
        << path << ": " << refusal(*report, kRowMean);
    EXPECT_EQ(read(outside / "stats.cu"), original) << path;
  }
}

// A backup folder where a source is (the source root itself) never writes.
TEST(ApplyHostile, ABackupNeverOverwritesASource) {
  auto [root, m] = edge_copy("hostile_backup");
  const std::string stats = read(root / "src/stats.cu");
  auto req = request(result_dir("hostile_backup_result", m, row_mean_variant()), ApplyMode::Inplace);
  req.output = root;
  auto report = apply_result(req);
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().message.find("the backup of src/stats.cu would overwrite a source"), std::string::npos)
      << report.error().message;
  EXPECT_EQ(read(root / "src/stats.cu"), stats);
}

// RESULT/variants linked to another folder holding a fragment: apply
// emptied that folder's rewritten/ before writing its own.
TEST(ApplyHostile, AVariantsFolderThatIsALinkIsRefused) {
  fs::path dir = result_dir("hostile_variants", edge_manifest(), row_mean_variant());
  fs::path foreign = scratch("hostile_variants_foreign");
  ASSERT_TRUE(write_file_atomic(foreign / "stark-variants.cmake", "# not ours\n"));
  ASSERT_TRUE(write_file_atomic(foreign / "rewritten/keep.txt", "the user's"));
  fs::create_directory_symlink(foreign, dir / "variants");
  auto report = apply_result(request(dir, ApplyMode::Variants));
  ASSERT_FALSE(report);
  EXPECT_NE(report.error().message.find("is a symbolic link"), std::string::npos) << report.error().message;
  EXPECT_EQ(read(foreign / "rewritten/keep.txt"), "the user's");
  EXPECT_EQ(read(foreign / "stark-variants.cmake"), "# not ours\n");
}

// body.end out of range aborted (std::out_of_range), a huge config_range
// crashed (SIGSEGV): each is now a refusal naming the field.
TEST(ApplyHostile, RangesThatDoNotFitTheFileAreRefusals) {
  const Manifest clean = edge_manifest();
  struct Case {
    const char* kernel;
    std::function<void(Kernel&)> spoil;
    const char* says;
  };
  const int64_t huge = int64_t{1} << 40;
  std::vector<Case> cases = {
      {kRowMean, [&](Kernel& k) { k.body.end = huge; }, "body of kernel"},
      {kRowMean, [](Kernel& k) { k.body.end = k.range.end + 1; }, "is not inside its range"},
      {kRowMean, [](Kernel& k) { k.range.begin = -5; }, "range of kernel"},
      {kRowMean, [&](Kernel& k) { k.range = {huge, huge + 1}; }, "does not fit the file"},
      {kRowMean, [&](Kernel& k) { k.launches.at(0).config_range = {huge, huge + 10}; }, "config_range"},
      {kRowMean, [](Kernel& k) { k.launches.at(0).grid_range->end = k.launches.at(0).config_range.end + 1; },
       "grid_range"},
      {kAxpy, [&](Kernel& k) { k.launches.at(0).block_range = ByteRange{-3, huge}; }, "block_range"},
  };
  json variants = row_mean_variant();
  variants[0]["best"]["launch"] = {{"grid", "ceil_div(s.rows, 64)"}, {"block", "64"}};
  variants.push_back(
      improved(kAxpy, "__global__ void axpy_c(int n, float a, const float* x, float* y) {}", {{"block", "512"}}));
  for (size_t i = 0; i < cases.size(); ++i) {
    Manifest m = clean;
    cases[i].spoil(find(m, cases[i].kernel));
    auto report = apply_result(request(result_dir("hostile_ranges", m, variants), ApplyMode::Patch));
    ASSERT_TRUE(report) << i << ": " << report.error().message;
    EXPECT_NE(refusal(*report, cases[i].kernel).find(cases[i].says), std::string::npos)
        << i << ": " << refusal(*report, cases[i].kernel);
  }
}

// INT64_MIN / -1 as a launch override's shared memory trapped (SIGFPE)
// when apply evaluated it to decide on cudaFuncSetAttribute.
TEST(ApplyHostile, ALaunchOverrideThatOverflowsIsNoCrash) {
  json variants = json::array({improved(kAxpy, "__global__ void axpy_c(int n, float a, const float* x, float* y) {}",
                                        {{"shmem", "(-9223372036854775807 - 1) / -1"}})});
  auto report = apply_result(request(result_dir("hostile_expr", edge_manifest(), variants), ApplyMode::Patch));
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->plan.kernels.size() + report->plan.refused.size(), 1u);
}

// Text of the result and the manifest that apply writes into the user's
// source outside the variant itself: the provenance comment (GPU name,
// backend, assumptions), a launch's argument texts, the original grid, the
// parameter types of an overloaded kernel's cast. Each could carry code.
TEST(ApplyHostile, ResultTextNeverBecomesCodeOutsideTheKernel) {
  Manifest m = edge_manifest();
  json kernels = row_mean_variant();
  kernels[0]["best"]["launch"] = {{"grid", "ceil_div(s.rows, 64)"}};
  kernels[0]["assumptions"] = {"nothing\nint injected_assumption;", "a line that ends in a splice \\"};
  kernels.push_back(improved(kClampF, "__global__ void clamp(int n, float* x) {}", {{"shmem", "65536"}}));
  kernels.push_back(improved(kAxpy, "__global__ void axpy_c(int n, float a, const float* x, float* y) {}",
                             {{"block", "grid.x * 2"}}));
  fs::path dir = result_dir("hostile_text", m, kernels);
  auto r = read_json_file(dir / "result.json");
  ASSERT_TRUE(r);
  (*r)["gpu"]["name"] = "H200\nint injected_gpu;";
  (*r)["backend"]["model"] = "m\r\nint injected_model; \\";
  ASSERT_TRUE(write_json_file(dir / "result.json", *r));
  auto report = apply_result(request(dir, ApplyMode::Patch));
  ASSERT_TRUE(report) << report.error().message;
  std::istringstream patch(report->patch);
  for (std::string line; std::getline(patch, line);)
    if (line.find("injected") != std::string::npos) {
      EXPECT_EQ(line.rfind("+// STARK: ", 0), 0u) << line;
    }
  EXPECT_NE(report->patch.find("injected_gpu"), std::string::npos);  // kept, as comment text

  // The manifest's launch texts: an argument, the original grid, a parameter type.
  Kernel& row_mean = find(m, kRowMean);
  row_mean.launches.at(0).args.at(0) = "(system(\"id\"), s)";
  Kernel& clamp = find(m, kClampF);
  clamp.params.at(0).type = "int); system(\"id\"); (void";
  Kernel& axpy = find(m, kAxpy);
  axpy.launches.at(0).grid_range.reset();
  axpy.launches.at(0).grid = "system(\"id\")";
  auto spoiled = apply_result(request(result_dir("hostile_text_manifest", m, kernels), ApplyMode::Patch));
  ASSERT_TRUE(spoiled) << spoiled.error().message;
  EXPECT_EQ(spoiled->patch.find("system("), std::string::npos) << spoiled->patch;
  EXPECT_NE(refusal(*spoiled, kRowMean).find("the manifest's argument text is not the call's"), std::string::npos)
      << refusal(*spoiled, kRowMean);
  EXPECT_NE(refusal(*spoiled, kClampF).find("is not a C++ type"), std::string::npos) << refusal(*spoiled, kClampF);
  EXPECT_NE(refusal(*spoiled, kAxpy).find("whose place in the file the scan did not record"), std::string::npos)
      << refusal(*spoiled, kAxpy);
}

}  // namespace
}  // namespace stark::rewriter
