// stark apply's three modes on the real files of tests/projects/edge (a
// template kernel in a header with two launch sites, overloads, a struct
// by value, runtime-API launches), with a hand-written result.
#include "rewriter/apply.h"

#include <gtest/gtest.h>

#include <regex>

#include "clang_tool/build_info.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/variant_check.h"
#include "core/hash.h"
#include "core/process.h"
#include "rewriter/check_command.h"
#include "rewriter/cmake_fragment.h"
#include "rewriter/sha256.h"
#include "rewriter/test_fixture.h"
#include "rewriter/variant_tree.h"

namespace stark::rewriter {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::edge_copy;
using testing::edge_manifest;
using testing::improved;
using testing::read;
using testing::request;
using testing::result_dir;
using testing::scanned_edge_manifest;
using testing::scratch;

using testing::kAxpy;
using testing::kClampD;
using testing::kClampF;
using testing::kNegate;
using testing::kRowMean;
using testing::kScale;

// The variants a search could have found; the annotation is left out of
// scale's on purpose (apply must put it back).
json edge_kernels(const std::string& axpy_body = "y[i] += a * x[i];", const std::string& scale_body = "alpha * x[i]") {
  json no_gain = improved(kClampD, "__global__ void clamp(int n, double* x) {}");
  no_gain["status"] = "no_gain";
  no_gain["best"] = nullptr;
  return json::array(
      {improved(kScale,
                "template <typename T, int kUnroll>\n"
                "__global__ void scale(int n, T alpha, const T* __restrict__ x, T* y) {\n"
                "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
                "    y[i] = " +
                    scale_body +
                    ";\n"
                    "}",
                {{"grid", "min(ceil_div(n, 1024), 4096)"}, {"block", "1024"}}, 3.1),
       improved(kRowMean,
                "[[stark::optimize(\"budget=4\", \"atol=1e-3\")]] __global__ void row_mean(Shape s, const float* in, "
                "float* out) {\n"
                "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  if (r >= s.rows) return;\n"
                "  float acc = 0;\n"
                "#pragma unroll 4\n"
                "  for (int c = 0; c < s.cols; ++c) acc += in[r * s.cols + c];\n"
                "  out[r] = acc / s.cols + s.eps;\n"
                "}",
                {{"grid", "ceil_div(s.rows, 64)"}, {"block", "64"}}, 1.4),
       improved(kAxpy,
                "__global__ void axpy_c(int n, float a, const float* x, float* y) {\n"
                "  extern __shared__ float stage[];\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  stage[threadIdx.x] = 0.0f;\n"
                "  if (i < n) " +
                    axpy_body +
                    "\n"
                    "}",
                {{"block", "512"}, {"shmem", "block.x * 8"}}, 1.2),
       improved(kNegate, "__global__ void api::negate(int n, float* x) { }", {{"block", "256"}}),
       improved(kClampF,
                "[[stark::optimize]] __global__ void clamp(int n, float* x) {\n"
                "  extern __shared__ float big[];\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  if (i < n) x[i] = fminf(fmaxf(x[i], 0.0f), 1.0f) + 0.0f * big[0];\n"
                "}",
                {{"shmem", "65536"}}, 1.1),
       no_gain});
}

std::vector<std::string> refused_ids(const ApplyReport& r) {
  std::vector<std::string> ids;
  for (const auto& x : r.plan.refused) ids.push_back(x.kernel);
  return ids;
}

TEST(Apply, PlanAppliesImprovedKernelsRefusesWhatCannotBeWrittenAndGroupsByFile) {
  Manifest m = edge_manifest();
  auto report = apply_result(request(result_dir("plan", m, edge_kernels()), ApplyMode::Patch));
  ASSERT_TRUE(report) << report.error().message;
  const ApplyPlan& plan = report->plan;
  EXPECT_EQ(plan.skipped, 1);  // clamp(double) had no gain
  ASSERT_EQ(plan.refused.size(), 1u);
  EXPECT_EQ(plan.refused[0].kernel, kNegate);
  EXPECT_NE(plan.refused[0].message.find("src/apis.cu:34 (in launch_negate_ex)"), std::string::npos);
  ASSERT_EQ(plan.kernels.size(), 4u);
  std::vector<std::string> files;
  for (const auto& f : plan.files) files.push_back(f.path);
  EXPECT_EQ(files, (std::vector<std::string>{"include/edge/scale.cuh", "src/apis.cu", "src/scale.cu", "src/stats.cu"}));
  std::map<std::string, int> group;
  for (const auto& k : plan.kernels) group[k.id] = k.group;
  EXPECT_EQ(group[kRowMean], group[kClampF]);  // both edit stats.cu
  EXPECT_NE(group[kScale], group[kRowMean]);
  EXPECT_NE(group[kAxpy], group[kScale]);

  const std::string& header = plan.files[0].updated;
  // Annotation put back right before __global__, after the template header.
  EXPECT_NE(
      header.find("template <typename T, int kUnroll>\nSTARK_OPTIMIZE(\"budget=8\", \"rtol=1e-5\") __global__ void "
                  "scale("),
      std::string::npos)
      << header;
  EXPECT_NE(header.find("// STARK: generated by `stark apply`; measured 3.1x faster than the original (310 us -> "
                        "100 us in the tested workload) on NVIDIA H200 (sm_90).\n"
                        "// STARK: reproduce with: stark optimize -p "),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("--target edge --kernel include/edge/scale.cuh:edge::detail::scale --backend builtin --seed 1\n"
                        "template <typename T, int kUnroll>"),
            std::string::npos)
      << header;
  EXPECT_NE(
      header.find("detail::scale<T, 4><<<(((n + 1023) / 1024) < 4096 ? ((n + 1023) / 1024) : 4096), 1024, 0, s>>>"),
      std::string::npos)
      << header;
  // The kept annotation is not doubled when the variant carries it.
  const std::string& stats = plan.files[3].updated;
  auto annotations = [](const std::string& s) {
    size_t n = 0;
    for (size_t at = s.find("stark::optimize"); at != std::string::npos; at = s.find("stark::optimize", at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(annotations(stats), annotations(plan.files[3].original));
  EXPECT_EQ(annotations(stats), 3u);
}

// Line numbers (1-based) of the original covered by [begin, end).
std::set<int> lines_of(const std::string& text, int64_t begin, int64_t end) {
  std::set<int> out;
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + begin, '\n'));
  out.insert(line);
  for (int64_t i = begin; i < end; ++i)
    if (text[static_cast<size_t>(i)] == '\n' && i + 1 < end) out.insert(++line);
  return out;
}

TEST(Apply, PatchIsGitApplyCleanAndTouchesOnlyKernelsAndLaunchConfigurations) {
  auto [root, m] = edge_copy("patch");
  fs::path dir = result_dir("patch_result", m, edge_kernels());
  auto req = request(dir, ApplyMode::Patch);
  req.output = dir / "stark.patch";
  auto report = apply_result(req);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(read(dir / "stark.patch"), report->patch);

  // Every removed line lies in a kernel's range or a launch configuration.
  std::map<std::string, std::set<int>> allowed;
  for (const auto& k : m.kernels) {
    std::string text = read(root / k.file);
    auto l = lines_of(text, k.range.begin, k.range.end);
    allowed[k.file].insert(l.begin(), l.end());
    for (const auto& s : k.launches) {
      std::string st = read(root / s.file);
      auto c = lines_of(st, s.config_range.begin, s.config_range.end);
      allowed[s.file].insert(c.begin(), c.end());
    }
  }
  std::regex hunk(R"(^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@$)");
  std::string file;
  int old_line = 0, removed = 0;
  std::istringstream in(report->patch);
  for (std::string line; std::getline(in, line);) {
    std::smatch mm;
    if (line.rfind("--- a/", 0) == 0) file = line.substr(6);
    else if (std::regex_match(line, mm, hunk)) old_line = std::stoi(mm[1]);
    else if (line.rfind("+++", 0) == 0 || line.rfind("diff ", 0) == 0) continue;
    else if (!line.empty() && line[0] == '-') {
      EXPECT_TRUE(allowed[file].count(old_line)) << file << ":" << old_line << " " << line;
      ++old_line;
      ++removed;
    } else if (!line.empty() && line[0] == ' ') {
      ++old_line;
    } else if (!line.empty() && line[0] == '+') {
      // added
    }
  }
  EXPECT_GT(removed, 10);

  // git applies it from the source root, and the result is the plan's.
  auto git = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "git");
    auto r = run_process(args, ProcessOptions::in(root));
    EXPECT_TRUE(r);
    return r ? *r : ProcessResult{};
  };
  ASSERT_EQ(git({"init", "-q", "."}).status.code, 0);
  ASSERT_EQ(git({"add", "."}).status.code, 0);
  ASSERT_EQ(git({"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "edge"}).status.code, 0);
  auto check = git({"apply", "--check", "-v", (dir / "stark.patch").string()});
  EXPECT_EQ(check.status.code, 0) << check.output;
  EXPECT_NE(check.output.find("Checking patch include/edge/scale.cuh..."), std::string::npos) << check.output;
  ASSERT_EQ(git({"apply", (dir / "stark.patch").string()}).status.code, 0);
  for (const auto& f : report->plan.files) EXPECT_EQ(read(root / f.path), f.updated) << f.path;
  auto status = git({"status", "--porcelain"});
  EXPECT_EQ(status.output, " M include/edge/scale.cuh\n M src/apis.cu\n M src/scale.cu\n M src/stats.cu\n");
}

TEST(Apply, InplaceWritesAtomicallyKeepsABackupAndRefusesChangedFiles) {
  auto [root, m] = edge_copy("inplace");
  fs::permissions(root / "src/stats.cu", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  std::string stats_before = read(root / "src/stats.cu");
  fs::path dir = result_dir("inplace_result", m, edge_kernels());

  // A file changed since the scan: nothing at all is written for it.
  ASSERT_TRUE(write_file_atomic(root / "src/apis.cu", read(root / "src/apis.cu") + "// edited\n"));
  auto req = request(dir, ApplyMode::Inplace);
  req.output = dir / "backup";
  auto first = apply_result(req);
  ASSERT_TRUE(first) << first.error().message;
  auto refused = refused_ids(*first);
  EXPECT_EQ(refused, (std::vector<std::string>{kAxpy, kNegate}));
  EXPECT_NE(first->plan.refused[0].message.find("src/apis.cu changed since the scan"), std::string::npos);
  EXPECT_EQ(first->files_written, (std::vector<std::string>{"include/edge/scale.cuh", "src/scale.cu", "src/stats.cu"}));
  EXPECT_EQ(read(root / "src/apis.cu").find("cudaFuncSetAttribute"), std::string::npos);
  EXPECT_NE(read(root / "src/stats.cu"), stats_before);
  EXPECT_EQ(read(dir / "backup/src/stats.cu"), stats_before);
  EXPECT_EQ(fs::status(root / "src/stats.cu").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  for (const auto& e : fs::directory_iterator(root / "src"))
    EXPECT_EQ(e.path().string().find(".stark-tmp"), std::string::npos) << e.path();

  // Applying again: the files no longer hold what the scan saw.
  auto again = apply_result(req);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->files_written.empty());
  EXPECT_EQ(again->plan.refused.size(), 5u);
  EXPECT_NE(again->plan.refused[0].message.find("changed since the scan"), std::string::npos);
}

TEST(Apply, VariantsWriteATreeAndAFragmentAndLeaveTheSourcesAlone) {
  Manifest m = edge_manifest();
  std::map<std::string, std::string> hashes;
  for (const auto& [f, e] : m.files) hashes[f] = *file_hash(fs::path(m.source_root) / f);
  fs::path dir = result_dir("variants", m, edge_kernels());
  auto report = apply_result(request(dir, ApplyMode::Variants));
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_EQ(report->written, dir / "variants");
  for (const auto& [f, h] : hashes) EXPECT_EQ(*file_hash(fs::path(m.source_root) / f), h) << f << " was written";

  fs::path tree = dir / "variants/tree";
  EXPECT_NE(read(tree / kTreeMarker).find("\nsource_root=" + m.source_root + "\n"), std::string::npos);
  EXPECT_FALSE(fs::is_symlink(tree / "include/edge"));
  EXPECT_TRUE(fs::is_symlink(tree / "include/edge/params.h"));
  EXPECT_EQ(fs::read_symlink(tree / "include/edge/params.h"), fs::path(m.source_root) / "include/edge/params.h");
  EXPECT_FALSE(fs::is_symlink(tree / "include/edge/scale.cuh"));
  EXPECT_EQ(read(tree / "include/edge/scale.cuh"), report->plan.files[0].updated);
  EXPECT_TRUE(fs::is_symlink(tree / "src/other.cu"));  // not rewritten
  EXPECT_TRUE(fs::is_symlink(tree / "CMakeLists.txt"));
  EXPECT_EQ(read(dir / "variants/rewritten/src/stats.cu"), report->plan.files[3].updated);

  std::string fragment = read(dir / "variants" / kFragmentName);
  EXPECT_NE(fragment.find("set(STARK_VARIANTS_VERSION 1)"), std::string::npos);
  EXPECT_NE(fragment.find("set(STARK_VARIANTS_RESULT_SHA256 \"" + sha256_hex(read(dir / "result.json")) + "\")"),
            std::string::npos);
  std::string original = read(fs::path(m.source_root) / "src/stats.cu");
  EXPECT_NE(fragment.find("set(STARK_VARIANTS_FILE_3_PATH \"src/stats.cu\")\n"), std::string::npos) << fragment;
  EXPECT_NE(fragment.find("set(STARK_VARIANTS_FILE_3_SHA256 \"" + sha256_hex(original) + "\")"), std::string::npos);
  EXPECT_NE(fragment.find("set(STARK_VARIANTS_FILE_3_HASH \"" + m.files.at("src/stats.cu").hash + "\")"),
            std::string::npos);
  EXPECT_NE(fragment.find("set(STARK_VARIANTS_TARGETS \"edge\")"), std::string::npos);
  EXPECT_NE(fragment.find("set(STARK_VARIANTS_INCLUDE_DIRS \"" + m.source_root + "/include\")"), std::string::npos)
      << fragment;

  // Applying again replaces the tree; a folder that is not ours is refused.
  EXPECT_TRUE(apply_result(request(dir, ApplyMode::Variants)));
  fs::path foreign = scratch("variants_foreign");
  ASSERT_TRUE(write_file_atomic(foreign / "keep.txt", "user data"));
  auto req = request(dir, ApplyMode::Variants);
  req.output = foreign;
  auto refused = apply_result(req);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("holds no STARK variants"), std::string::npos);
  EXPECT_EQ(read(foreign / "keep.txt"), "user data");
}

ApplyRequest checked(const fs::path& dir, ApplyMode mode, const Manifest& m) {
  ApplyRequest r = request(dir, mode);
  r.compile_check = true;
  r.jobs = 2;
  r.builder = check_command_builder({STARK_NVCC_PATH, "", m.build_dir});
  return r;
}

TEST(Apply, CompileCheckBuildsEveryUnitForEveryArchAndRefusesWhatFails) {
  Manifest m = edge_manifest();
  const std::vector<std::string> only = {kScale, kAxpy};
  // The rewritten header is seen through <edge/scale.cuh> from the tree.
  auto good_req = checked(result_dir("check_good", m, edge_kernels()), ApplyMode::Patch, m);
  good_req.only = only;
  auto good = apply_result(good_req);
  ASSERT_TRUE(good) << good.error().message;
  EXPECT_TRUE(good->failures.empty()) << good->failures[0].log;
  EXPECT_TRUE(good->plan.refused.empty());
  EXPECT_EQ(good->plan.kernels.size(), 2u);

  // Variants that pass the variant check but not ptxas: the header's (seen
  // through the tree's include folder) and a .cu's. Each refuses its own
  // kernel; clamp still applies.
  const std::string not_ptx = "asm volatile(\"stark_not_ptx;\");";
  auto bad_req = checked(
      result_dir("check_bad", m, edge_kernels("{ y[i] += a * x[i]; " + not_ptx + " }", "alpha * x[i]; " + not_ptx)),
      ApplyMode::Patch, m);
  bad_req.only = {kScale, kAxpy, kClampF};
  auto bad = apply_result(bad_req);
  ASSERT_TRUE(bad) << bad.error().message;
  ASSERT_EQ(bad->failures.size(), 4u);  // two units, sm_80 and sm_90 each
  EXPECT_EQ(bad->failures[0].file, "src/apis.cu");
  EXPECT_EQ(bad->failures[0].sm, "80");
  EXPECT_EQ(bad->failures[2].file, "src/scale.cu");
  EXPECT_EQ(bad->failures[2].sm, "80");
  EXPECT_NE(bad->failures[2].log.find("stark_not_ptx"), std::string::npos) << bad->failures[2].log;
  EXPECT_EQ(refused_ids(*bad), (std::vector<std::string>{kScale, kAxpy}));
  ASSERT_EQ(bad->plan.kernels.size(), 1u);
  EXPECT_EQ(bad->plan.kernels[0].id, kClampF);
}

// With the scan's reason in the manifest (negate is also launched through
// cudaLaunchKernelEx, whose shape a patch cannot write), a launch override
// for it is the variant check's refusal, before anything is written.
TEST(Apply, AFixedLaunchRefusesTheOverrideBeforeAnythingIsWritten) {
  Manifest m = scanned_edge_manifest();
  const Kernel& negate = testing::kernel(m, kNegate);
  ASSERT_NE(negate.fixed_launch.find("src/apis.cu:34"), std::string::npos) << negate.fixed_launch;
  fs::path dir = result_dir("fixed_launch", m, edge_kernels());
  auto req = checked(dir, ApplyMode::Patch, m);
  req.only = {kNegate};
  auto r = apply_result(req);
  ASSERT_FALSE(r);
  EXPECT_EQ(
      r.error().message.rfind(std::string(kNegate) + ": the result's variant is refused, nothing was applied: ", 0), 0u)
      << r.error().message;
  EXPECT_NE(r.error().message.find("this kernel's launch cannot be rewritten (its launch at src/apis.cu:34 takes its "
                                   "shape from a launch config struct)"),
            std::string::npos)
      << r.error().message;
}

// A result folder is untrusted: each of these variants was once spliced into
// the user's files. Every one stops the apply, naming the kernel, before
// anything is written or compiled.
TEST(Apply, RefusesAResultWhoseVariantIsMoreThanTheKernelAndItsHelpers) {
  const std::string kernel = "[[stark::optimize]] __global__ void clamp(int n, float* x) {}\n";
  const std::vector<std::pair<std::string, std::string>> hostile = {
      {kernel + "#define cudaGetLastError() (system(\"id\"), cudaSuccess)\n",
       "the preprocessor directive '#define cudaGetLastError()"},
      {"static int on_host() { return system(\"id\"); }\n" + kernel, "'on_host' is host code"},
      {"static __global__ void second(float* x) {}\n" + kernel, "adds the kernel 'second'"},
      {"struct Boot { inline static int x = system(\"id\"); };\n" + kernel, "variable 'x' is host data"}};
  auto [root, m] = edge_copy("hostile");
  std::map<std::string, std::string> before;
  for (const auto& [f, e] : m.files) before[f] = read(root / f);
  for (size_t i = 0; i < hostile.size(); ++i) {
    json kernels = edge_kernels();
    for (auto& k : kernels)
      if (k["id"] == kClampF) k["best"]["source"] = hostile[i].first;
    fs::path dir = result_dir("hostile_" + std::to_string(i), m, kernels);
    for (ApplyMode mode : {ApplyMode::Inplace, ApplyMode::Variants}) {
      auto req = checked(dir, mode, edge_manifest());  // nvcc would compile it: it must not get there
      req.output = dir / "out";
      if (i > 0) req.only = {kClampF};  // the first shows valid kernels do not save the apply; the rest save time
      auto r = apply_result(req);
      ASSERT_FALSE(r) << hostile[i].first;
      EXPECT_EQ(
          r.error().message.rfind(std::string(kClampF) + ": the result's variant is refused, nothing was applied: ", 0),
          0u)
          << r.error().message;
      EXPECT_NE(r.error().message.find(hostile[i].second), std::string::npos) << r.error().message;
      EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
      EXPECT_FALSE(fs::exists(dir / "out"));
    }
  }
  for (const auto& [f, text] : before) EXPECT_EQ(read(root / f), text) << f << " was written";
}

}  // namespace
}  // namespace stark::rewriter
