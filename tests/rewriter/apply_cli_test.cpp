// stark apply as a user runs it: exit codes, one-line errors, each mode on
// the real manifest of tests/projects/edge, and a hand-written result that
// validates against the contract's schema.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include "core/child_process.h"
#include "core/file_io.h"
#include "core/hash.h"
#include "core/manifest.h"
#include "core/process.h"
#include "tests/support/run_stark.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSource = STARK_SOURCE_DIR;

ProcessResult stark(std::vector<std::string> args) { return testing::run_stark(STARK_EXE, std::move(args)); }

fs::path scratch(const std::string& name) {
  fs::path d = (std::filesystem::path(STARK_BINARY_DIR) / "tests/rewriter-scratch") / ("apply_cli_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

json kernel(const char* id, const char* status, json best) {
  return {{"id", id},
          {"status", status},
          {"cache", "miss"},
          {"baseline_us", 80.0},
          {"best_us", 40.0},
          {"speedup", 2.0},
          {"attempts", 3},
          {"best", best},
          {"checks", json::array()},
          {"strategies", json::array()},
          {"tree", {{{"id", 0}, {"parent", nullptr}, {"role", "root"}, {"status", "accepted"}}}}};
}

/// A result over the edge project: axpy_c improved with a launch override,
/// api::negate improved but launched through cudaLaunchKernelEx (refused),
/// row_mean without gain.
fs::path edge_result(const std::string& name, const Manifest& m) {
  fs::path dir = scratch(name);
  EXPECT_TRUE(write_json_file(dir / "manifest.json", json(m)));
  json kernels = json::array(
      {kernel("src/apis.cu:axpy_c", "improved",
              {{"source",
                "__global__ void axpy_c(int n, float a, const float* x, float* y) {\n"
                "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
                "    y[i] += a * x[i];\n}"},
               {"launch", {{"grid", "min(ceil_div(n, 256), 2048)"}}}}),
       kernel("src/apis.cu:api::negate", "improved",
              {{"source", "__global__ void api::negate(int n, float* x) {}"}, {"launch", {{"block", "64"}}}}),
       kernel("src/stats.cu:edge::row_mean", "no_gain", nullptr)});
  json r = {{"schema", "stark.result/1"},
            {"source_root", m.source_root},
            {"build_dir", m.build_dir},
            {"manifest", (dir / "manifest.json").string()},
            {"gpu", {{"name", "NVIDIA H200"}, {"sm", "90"}, {"driver", "580.65"}, {"cuda", "13.0"}}},
            {"backend", {{"name", "builtin"}, {"model", ""}}},
            {"seed", 3},
            {"kernels", kernels}};
  EXPECT_TRUE(write_json_file(dir / "result.json", r));
  return dir;
}

/// The edge manifest as an older scan wrote it, without `fixed_launch`
/// reasons: negate's override then meets the rewriter's own refusal of the
/// cudaLaunchKernelEx site (with the reason, the variant check refuses it
/// first: Apply.AFixedLaunchRefusesTheOverrideBeforeAnythingIsWritten).
Manifest edge() {
  auto m = load_manifest(STARK_EDGE_MANIFEST);
  EXPECT_TRUE(m) << m.error().message;
  if (!m) return Manifest{};
  for (auto& k : m->kernels) k.fixed_launch.clear();
  return *m;
}

TEST(ApplyCli, UsageErrorsExitTwo) {
  auto none = stark({"apply"});
  EXPECT_EQ(none.status.code, 2);
  EXPECT_NE(none.output.find("stark: error: --result is required"), std::string::npos) << none.output;
  auto mode = stark({"apply", "--result", "x", "--mode", "sideways"});
  EXPECT_EQ(mode.status.code, 2) << mode.output;
}

TEST(ApplyCli, AMissingResultIsOneClearLine) {
  auto r = stark({"apply", "--result", "/nonexistent/result-dir"});
  EXPECT_EQ(r.status.code, 1);
  EXPECT_EQ(r.output, "stark: error: cannot read '/nonexistent/result-dir/result.json': No such file or directory\n");
}

TEST(ApplyCli, HandWrittenResultValidatesAgainstTheSchema) {
  fs::path dir = edge_result("schema", edge());
  auto check = run_process({STARK_PYTHON, (kSource / "tests/tools/validate_json.py").string(),
                            (kSource / "tests/schemas/result.schema.json").string(), (dir / "result.json").string()});
  ASSERT_TRUE(check);
  EXPECT_EQ(check->status.code, 0) << check->output;
}

TEST(ApplyCli, PatchOnStdoutRefusalsOnStderrCompileCheckedForEachArch) {
  fs::path dir = edge_result("patch", edge());
  auto r = stark({"apply", "--result", dir.string(), "--mode", "patch"});
  EXPECT_EQ(r.status.code, 1) << r.output;  // a kernel was refused
  EXPECT_NE(r.output.find("stark: compile check: 1 translation unit, 2 compiles\n"), std::string::npos) << r.output;
  // Each compile says so as it ends (nvcc takes seconds per unit and arch).
  EXPECT_NE(r.output.find("stark: compile check [1/2] "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("stark: compile check [2/2] "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("stark: error: src/apis.cu:api::negate: not applied: cannot rewrite the launch at "
                          "src/apis.cu:34 (in launch_negate_ex): its launch shape is not written as arguments"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("diff --git a/src/apis.cu b/src/apis.cu\n"), std::string::npos) << r.output;
  EXPECT_NE(
      r.output.find("+  return cudaLaunchKernel((const void*)axpy_c, (((n + 255) / 256) < 2048 ? ((n + 255) / 256) "
                    ": 2048), dim3(256), args, 0, s);"),
      std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("stark: patch of 1 kernel in 1 file; 1 refused; 1 not improved, left as they are\n"),
            std::string::npos)
      << r.output;

  // -o writes the file; stdout stays empty.
  auto o = stark({"apply", "--result", dir.string(), "--kernel", "src/apis.cu:axpy_c", "--no-compile-check", "-o",
                  (dir / "stark.patch").string()});
  EXPECT_EQ(o.status.code, 0) << o.output;
  EXPECT_EQ(o.output.find("diff --git"), std::string::npos) << o.output;
  auto patch = read_file(dir / "stark.patch");
  ASSERT_TRUE(patch);
  EXPECT_EQ(patch->rfind("diff --git a/src/apis.cu b/src/apis.cu\n", 0), 0u);

  auto unknown = stark({"apply", "--result", dir.string(), "--kernel", "src/apis.cu:nope"});
  EXPECT_EQ(unknown.status.code, 1);
  EXPECT_EQ(unknown.output, "stark: error: the result has no kernel 'src/apis.cu:nope'\n");
}

TEST(ApplyCli, VariantsRefuseAFolderInTheSourceTree) {
  Manifest m = edge();
  fs::path dir = edge_result("variants", m);
  auto r = stark({"apply", "--result", dir.string(), "--mode", "variants", "--no-compile-check", "-o",
                  (fs::path(m.source_root) / "variants").string()});
  EXPECT_EQ(r.status.code, 1);
  EXPECT_NE(r.output.find("is inside the source root but not inside the build folder"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(fs::path(m.source_root) / "variants"));

  auto ok = stark({"apply", "--result", dir.string(), "--mode", "variants", "--no-compile-check"});
  EXPECT_EQ(ok.status.code, 1) << ok.output;  // negate refused; axpy_c written
  EXPECT_NE(ok.output.find("stark: variants of 1 kernel in 1 file -> " + (dir / "variants").string()),
            std::string::npos)
      << ok.output;
  EXPECT_TRUE(fs::exists(dir / "variants/stark-variants.cmake"));
}

/// A copy of the edge project and its manifest moved there, compile
/// commands included (the variant check parses the copy).
std::pair<fs::path, Manifest> edge_copy(const std::string& name) {
  Manifest m = edge();
  fs::path root = scratch(name) / "edge";
  fs::copy(m.source_root, root, fs::copy_options::recursive);
  const std::string from = m.source_root, to = root.string();
  auto move = [&](std::string& s) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  };
  for (auto& k : m.kernels)
    if (k.compile) {
      move(k.compile->file);
      for (auto& a : k.compile->arguments) move(a);
    }
  m.source_root = root.string();
  return {root, m};
}

TEST(ApplyCli, InplaceOnACopyBacksUpAndSaysWhere) {
  auto [root, m] = edge_copy("inplace_src");
  fs::path dir = edge_result("inplace", m);
  auto r = stark({"apply", "--result", dir.string(), "--mode", "inplace", "--kernel", "src/apis.cu:axpy_c",
                  "--no-compile-check", "-o", (dir / "backup").string()});
  EXPECT_EQ(r.status.code, 0) << r.output;
  EXPECT_EQ(r.output, "stark: rewrote 1 file for 1 kernel; originals backed up in " + (dir / "backup").string() + "\n");
  auto now = read_file(root / "src/apis.cu");
  ASSERT_TRUE(now);
  EXPECT_NE(now->find("// STARK: generated by `stark apply`; measured 2x faster"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "backup/src/apis.cu"));
}

TEST(ApplyCli, AnApplyKilledBetweenItsRenamesIsFinishedByRecover) {
  auto [root, m] = edge_copy("killed_src");
  fs::path dir = edge_result("killed", m);
  const std::string original = *read_file(root / "src/apis.cu");
  auto r = stark({"apply", "--result", dir.string(), "--mode", "inplace", "--kernel", "src/apis.cu:axpy_c",
                  "--no-compile-check", "-o", (dir / "backup").string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  const std::string updated = *read_file(root / "src/apis.cu");
  // What a kill before the rename leaves: the original in place, the new
  // content in its temporary beside it, and the journal in the source root.
  ASSERT_TRUE(write_file_atomic(root / "src/apis.cu", original));
  ASSERT_TRUE(write_file_atomic(root / "src/apis.cu.stark-tmp.777", updated));
  json journal = {{"schema", "stark.apply-journal/1"},
                  {"files",
                   {{{"path", "src/apis.cu"},
                     {"temp", "src/apis.cu.stark-tmp.777"},
                     {"backup", (dir / "backup/src/apis.cu").string()},
                     {"original_hash", content_hash(original)},
                     {"updated_hash", content_hash(updated)}}}}};
  ASSERT_TRUE(write_json_file(root / ".stark-apply-journal.json", journal));

  auto again = stark({"apply", "--result", dir.string(), "--mode", "inplace", "--no-compile-check"});
  EXPECT_EQ(again.status.code, 1);
  EXPECT_NE(again.output.find("an earlier `stark apply --mode inplace` was interrupted"), std::string::npos)
      << again.output;
  EXPECT_NE(again.output.find("--recover"), std::string::npos) << again.output;
  EXPECT_EQ(*read_file(root / "src/apis.cu"), original);

  auto recover = stark({"apply", "--result", dir.string(), "--recover"});
  EXPECT_EQ(recover.status.code, 0) << recover.output;
  EXPECT_EQ(recover.output, "stark: finished the interrupted apply; new content in: src/apis.cu\n");
  EXPECT_EQ(*read_file(root / "src/apis.cu"), updated);
  EXPECT_FALSE(fs::exists(root / "src/apis.cu.stark-tmp.777"));
  EXPECT_FALSE(fs::exists(root / ".stark-apply-journal.json"));
}

/// Starts stark with `args` (output not read), sends `signal` after
/// `delay`, and waits for it to end.
void run_and_kill(std::vector<std::string> args, std::chrono::microseconds delay, int signal) {
  args.insert(args.begin(), STARK_EXE);
  auto child = ChildProcess::start(args);
  ASSERT_TRUE(child) << child.error().message;
  std::this_thread::sleep_for(delay);
  ::kill((*child)->pid(), signal);
  (*child)->finish(std::chrono::seconds(60));
}

/// The edge result plus an improved clamp in src/stats.cu: two files to rewrite.
fs::path two_file_result(const std::string& name, const Manifest& m) {
  fs::path dir = edge_result(name, m);
  auto r = read_json_file(dir / "result.json");
  EXPECT_TRUE(r);
  (*r)["kernels"].push_back(kernel("src/stats.cu:edge::clamp(int, float *)", "improved",
                                   {{"source",
                                     "__global__ void clamp(int n, float* __restrict__ x) {\n"
                                     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                     "  if (i < n) x[i] = fminf(fmaxf(x[i], 0.0f), 1.0f);\n}"}}));
  EXPECT_TRUE(write_json_file(dir / "result.json", *r));
  return dir;
}

TEST(ApplyCli, AnApplyKilledAtAnyMomentEndsWithTheOriginalsOrAllTheNewContent) {
  const std::vector<std::string> files = {"src/apis.cu", "src/stats.cu"};
  auto apply_args = [](const fs::path& dir) {
    return std::vector<std::string>{"apply",
                                    "--result",
                                    dir.string(),
                                    "--mode",
                                    "inplace",
                                    "--kernel",
                                    "src/apis.cu:axpy_c",
                                    "--kernel",
                                    "src/stats.cu:edge::clamp(int, float *)",
                                    "--no-compile-check",
                                    "-o",
                                    (dir / "backup").string()};
  };
  // One run to the end: how long it takes and what it writes.
  auto [root, m] = edge_copy("kill_reference_src");
  fs::path dir = two_file_result("kill_reference", m);
  std::map<std::string, std::string> original, updated;
  for (const auto& f : files) original[f] = *read_file(root / f);
  auto start = std::chrono::steady_clock::now();
  auto r = stark(apply_args(dir));
  auto took = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
  ASSERT_EQ(r.status.code, 0) << r.output;
  for (const auto& f : files) {
    updated[f] = *read_file(root / f);
    ASSERT_NE(updated[f], original[f]) << f;
  }

  // Killed (SIGKILL, or Ctrl-C) at moments spread over that time, then
  // recovered where a journal says a run was under way: never a mix.
  constexpr int kMoments = 8;
  for (int i = 0; i < kMoments; ++i) {
    SCOPED_TRACE(fmt::format("killed after {} of {} us", took.count() * i / kMoments, took.count()));
    auto [kroot, km] = edge_copy(fmt::format("kill_{}_src", i));
    fs::path kdir = two_file_result(fmt::format("kill_{}", i), km);
    run_and_kill(apply_args(kdir), took * i / kMoments, i % 2 == 0 ? SIGKILL : SIGINT);
    if (fs::exists(kroot / ".stark-apply-journal.json")) {
      auto recover = stark({"apply", "--result", kdir.string(), "--recover"});
      EXPECT_EQ(recover.status.code, 0) << recover.output;
    }
    EXPECT_FALSE(fs::exists(kroot / ".stark-apply-journal.json"));
    int now_updated = 0;
    for (const auto& f : files) {
      std::string now = *read_file(kroot / f);
      EXPECT_TRUE(now == original[f] || now == updated[f]) << f << " is neither the original nor the new content";
      now_updated += now == updated[f];
    }
    EXPECT_TRUE(now_updated == 0 || now_updated == static_cast<int>(files.size())) << "a mix of old and new sources";
    for (const auto& e : fs::directory_iterator(kroot / "src"))
      EXPECT_EQ(e.path().string().find(".stark-tmp"), std::string::npos) << e.path() << " was left behind";
  }
}

TEST(ApplyCli, AVariantTheCheckRefusesStopsTheApplyBeforeAnyFileIsWritten) {
  auto [root, m] = edge_copy("hostile_src");
  std::string before = *read_file(root / "src/apis.cu");
  fs::path dir = edge_result("hostile", m);
  json result = *read_json_file(dir / "result.json");
  result["kernels"][0]["best"]["source"] =
      "__global__ void axpy_c(int n, float a, const float* x, float* y) {}\n"
      "#define cudaGetLastError() (system(\"id\"), cudaSuccess)\n";
  ASSERT_TRUE(write_json_file(dir / "result.json", result));
  auto r = stark(
      {"apply", "--result", dir.string(), "--mode", "inplace", "--no-compile-check", "-o", (dir / "backup").string()});
  EXPECT_EQ(r.status.code, 1) << r.output;
  EXPECT_EQ(r.output.rfind("stark: error: src/apis.cu:axpy_c: the result's variant is refused, nothing was applied: "
                           "variant line 2: the preprocessor directive '#define cudaGetLastError() (system(\"id\"), "
                           "cudaSuccess)' is not allowed",
                           0),
            0u)
      << r.output;
  EXPECT_EQ(*read_file(root / "src/apis.cu"), before);
  EXPECT_FALSE(fs::exists(dir / "backup"));
}

}  // namespace
}  // namespace stark
