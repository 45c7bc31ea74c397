// find_package(STARK) + stark_optimize_target() as a user gets them: a copy
// of tests/projects/swap configured against the installed package, a
// hand-written result, and the builds that follow. The static library's
// object code tells which kernels were compiled (each variant leaves a
// marker variable in it).
#include <gtest/gtest.h>

#include "core/file_io.h"
#include "tests/rewriter/swap_project.h"

namespace stark::testing {
namespace {

const fs::path kSource = STARK_SOURCE_DIR;
const fs::path kPrefix = STARK_TEST_PREFIX;

class SwapBuild : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = (std::filesystem::path(STARK_BINARY_DIR) / "tests/rewriter-scratch") / "variants_cmake";
    fs::remove_all(root_);
    fs::create_directories(root_);
    fs::copy(kSource / "tests/projects/swap", src_, fs::copy_options::recursive);
  }

  ProcessResult configure(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"cmake",
                                     "-S",
                                     src_.string(),
                                     "-B",
                                     build_.string(),
                                     "-G",
                                     "Ninja",
                                     "-DCMAKE_PREFIX_PATH=" + kPrefix.string(),
                                     "-DCMAKE_CUDA_COMPILER=" STARK_NVCC_PATH,
                                     "-DCMAKE_BUILD_TYPE=Release"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  }
  ProcessResult build() { return run({"cmake", "--build", build_.string()}); }
  std::vector<std::string> markers() { return markers_in(build_ / "libswap.a"); }

  fs::path root_;
  fs::path src_ = (std::filesystem::path(STARK_BINARY_DIR) / "tests/rewriter-scratch") / "variants_cmake/src";
  fs::path build_ = (std::filesystem::path(STARK_BINARY_DIR) / "tests/rewriter-scratch") / "variants_cmake/build";
  fs::path result_ =
      (std::filesystem::path(STARK_BINARY_DIR) / "tests/rewriter-scratch") / "variants_cmake/build/stark/swap";
};

using Markers = std::vector<std::string>;

/// CMake wraps warnings: compare with whitespace runs folded to one space.
std::string flat(const std::string& text) {
  std::string out;
  for (char c : text) {
    bool space = c == ' ' || c == '\n' || c == '\t';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

TEST_F(SwapBuild, ResultSwapsSourcesStaleOriginalsFallBackAndOffBuildsOriginals) {
  // 1. Two lines of CMake give the targets; without a result, the originals.
  auto c = configure();
  ASSERT_EQ(c.status.code, 0) << c.output;
  auto targets = run({"cmake", "--build", build_.string(), "--target", "help"});
  EXPECT_NE(targets.output.find("swap_stark_optimize"), std::string::npos) << targets.output;
  EXPECT_NE(targets.output.find("stark_optimize:"), std::string::npos) << targets.output;
  auto b = build();
  ASSERT_EQ(b.status.code, 0) << b.output;
  EXPECT_EQ(markers(), Markers{});
  // ops.cu spells the raw [[stark::optimize]]: nvcc's #2803 is silenced by default.
  EXPECT_EQ(b.output.find("2803"), std::string::npos) << b.output;
  EXPECT_TRUE(fs::exists(build_ / ".cmake/api/v1/query/client-stark/codemodel-v2"));

  // 2. What stark optimize leaves behind: its manifest and a result.
  auto scan = run({(kPrefix / "bin/stark").string(), "scan", "-p", build_.string(), "--target", "swap", "-o",
                   (result_ / "manifest.json").string()});
  ASSERT_EQ(scan.status.code, 0) << scan.output;
  write_swap_result(result_);

  // 3. The next build reconfigures, applies, and compiles the variants.
  b = build();
  ASSERT_EQ(b.status.code, 0) << b.output;
  EXPECT_NE(b.output.find("STARK: swap: applying"), std::string::npos) << b.output;
  EXPECT_NE(b.output.find("compile check: 3 translation units, 6 compiles"), std::string::npos) << b.output;
  EXPECT_NE(b.output.find("STARK: swap: compiling 3 optimized kernel(s)"), std::string::npos) << b.output;
  EXPECT_EQ(markers(), (Markers{"relu", "scale", "square"}));
  std::string db = read_text(build_ / "compile_commands.json");
  EXPECT_NE(db.find((result_ / "variants/tree/src/ops_f64.cu").string()), std::string::npos);
  // The files people edit keep their entries (clangd, clang-tidy), and a
  // scan reads them, not the tree's copies.
  EXPECT_NE(db.find("\"file\": \"" + (src_ / "src/ops_f64.cu").string() + "\""), std::string::npos) << db;
  auto rescan = run({(kPrefix / "bin/stark").string(), "scan", "-p", build_.string(), "--target", "swap", "--json"});
  ASSERT_EQ(rescan.status.code, 0) << rescan.output;
  EXPECT_EQ(rescan.output.find("variants/tree"), std::string::npos) << rescan.output;
  for (const char* id :
       {"src/ops.cu:swap::scale", "src/norm.cu:swap::square", "include/swap/activation.cuh:swap::relu"})
    EXPECT_NE(rescan.output.find(std::string("\"id\": \"") + id + "\""), std::string::npos) << id;
  // The tree's rewritten launch site (the argument expression substituted).
  std::string ops = read_text(result_ / "variants/tree/src/ops.cu");
  EXPECT_NE(ops.find("scale<<<(((count * 2) + 511) / 512), 512>>>(count * 2, a, x);"), std::string::npos) << ops;
  // Nothing left to do: no reconfigure loop.
  b = build();
  EXPECT_NE(b.output.find("ninja: no work to do"), std::string::npos) << b.output;

  // 4. An edited original: its group (relu and scale share ops.cu) falls
  //    back to the original with a warning; square keeps its variant.
  std::string original = read_text(src_ / "src/ops.cu");
  ASSERT_TRUE(write_file_atomic(src_ / "src/ops.cu", original + "// edited after the optimize run\n"));
  b = build();
  ASSERT_EQ(b.status.code, 0) << b.output;
  EXPECT_NE(
      flat(b.output).find("STARK: swap: src/ops.cu changed since it was optimized; building the original of "
                          "include/swap/activation.cuh:swap::relu, src/ops.cu:swap::scale (stale variant dropped)"),
      std::string::npos)
      << b.output;
  EXPECT_EQ(markers(), (Markers{"square"}));

  // 5. Back to the measured source: the variants come back.
  ASSERT_TRUE(write_file_atomic(src_ / "src/ops.cu", original));
  b = build();
  ASSERT_EQ(b.status.code, 0) << b.output;
  EXPECT_EQ(flat(b.output).find("changed since it was optimized"), std::string::npos) << b.output;
  EXPECT_EQ(markers(), (Markers{"relu", "scale", "square"}));

  // 6. STARK_USE_VARIANTS=OFF builds every original; without the silencing
  //    option nvcc's warning about the raw attribute shows.
  c = configure({"-DSTARK_USE_VARIANTS=OFF", "-DSTARK_SILENCE_ATTRIBUTE_WARNING=OFF"});
  ASSERT_EQ(c.status.code, 0) << c.output;
  EXPECT_NE(c.output.find("STARK_USE_VARIANTS is OFF"), std::string::npos) << c.output;
  b = build();
  ASSERT_EQ(b.status.code, 0) << b.output;
  EXPECT_EQ(markers(), Markers{});
  EXPECT_NE(b.output.find("warning #2803-D"), std::string::npos) << b.output;
  EXPECT_FALSE(fs::exists(result_ / "variants-in-use.txt"));  // optimizing again is allowed
  for (const char* f : {"src/ops.cu", "src/ops_f64.cu", "src/norm.cu", "include/swap/activation.cuh"})
    EXPECT_EQ(read_text(src_ / f), read_text(kSource / "tests/projects/swap" / f)) << f << " was written";
}

TEST_F(SwapBuild, OptimizingAgainWithTheVariantsInUseOptimizesTheOriginalsInABuildOfTheirOwn) {
  // The tests of a build that compiles the variants launch the variants (with
  // their own grids): their captures are no inputs for the originals.
  auto c = configure({"-DSWAP_USER_OPTION=kept"});
  ASSERT_EQ(c.status.code, 0) << c.output;
  auto scan = run({(kPrefix / "bin/stark").string(), "scan", "-p", build_.string(), "--target", "swap", "-o",
                   (result_ / "manifest.json").string()});
  ASSERT_EQ(scan.status.code, 0) << scan.output;
  write_swap_result(result_);
  auto b = build();
  ASSERT_EQ(b.status.code, 0) << b.output;
  ASSERT_EQ(markers(), (Markers{"relu", "scale", "square"}));

  auto again = run({"cmake", "--build", build_.string(), "--target", "swap_stark_optimize"});
  ASSERT_EQ(again.status.code, 0) << again.output;
  const fs::path originals = result_ / "originals-build";
  EXPECT_NE(flat(again.output)
                .find("STARK: swap compiles the optimized variants; optimizing the originals in " + originals.string()),
            std::string::npos)
      << again.output;
  // That build is this one with the variants off: same cache, original sources.
  std::string cache = read_text(originals / "CMakeCache.txt");
  EXPECT_NE(cache.find("SWAP_USER_OPTION:STRING=kept"), std::string::npos);
  EXPECT_NE(cache.find("STARK_USE_VARIANTS:BOOL=OFF"), std::string::npos);
  EXPECT_EQ(markers_in(originals / "libswap.a"), Markers{});
  // The new result is about the originals, by the ids of the first run.
  auto m = read_json_file(result_ / "manifest.json");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ((*m)["build_dir"], originals.string());
  std::vector<std::string> ids;
  for (const auto& k : (*m)["kernels"]) ids.push_back(k["id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"include/swap/activation.cuh:swap::relu", "src/norm.cu:swap::square",
                                           "src/ops.cu:swap::scale"}));
  EXPECT_EQ(again.output.find("variants/tree"), std::string::npos) << again.output;
}

TEST_F(SwapBuild, AResultThatRewritesExactlyOneFileIsUsed) {
  // A one-element CMake list ("0") is false in if(): the fragment's file list
  // must be tested for emptiness, not truth.
  auto c = configure();
  ASSERT_EQ(c.status.code, 0) << c.output;
  auto scan = run({(kPrefix / "bin/stark").string(), "scan", "-p", build_.string(), "--target", "swap", "-o",
                   (result_ / "manifest.json").string()});
  ASSERT_EQ(scan.status.code, 0) << scan.output;
  write_swap_result(result_, {"src/norm.cu:swap::square"});
  auto b = build();
  ASSERT_EQ(b.status.code, 0) << b.output;
  EXPECT_EQ(b.output.find("no improved kernel to use"), std::string::npos) << b.output;
  EXPECT_NE(b.output.find("STARK: swap: compiling 1 optimized kernel(s)"), std::string::npos) << b.output;
  EXPECT_EQ(markers(), Markers{"square"});
}

TEST_F(SwapBuild, MultiConfigBuildsTestAndScanTheConfigurationBeingBuilt) {
  auto c = run({"cmake", "-S", src_.string(), "-B", build_.string(), "-G", "Ninja Multi-Config",
                "-DCMAKE_PREFIX_PATH=" + kPrefix.string(), "-DCMAKE_CUDA_COMPILER=" STARK_NVCC_PATH});
  ASSERT_EQ(c.status.code, 0) << c.output;

  // The target runs the Release tests on Release's flags, and builds the
  // project's test program first (it is added after stark_optimize_target).
  auto commands =
      run({"ninja", "-C", build_.string(), "-f", "build-Release.ninja", "-t", "commands", "swap_stark_optimize"});
  ASSERT_EQ(commands.status.code, 0) << commands.output;
  const std::string flat_commands = flat(commands.output);
  EXPECT_NE(flat_commands.find("-DCONFIG=Release -P " + (kPrefix / "lib/cmake/STARK/STARKRun.cmake").string()),
            std::string::npos)
      << commands.output;
  EXPECT_NE(read_text(result_ / "stark-run.cmake").find("set(MULTI_CONFIG [==[1]==])"), std::string::npos);
  EXPECT_NE(flat_commands.find("-o Release/square_test"), std::string::npos) << commands.output;

  // The scan reads the configuration it is given, and names the ones there are.
  auto manifest = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        (kPrefix / "bin/stark").string(), "scan", "-p", build_.string(), "--target", "swap", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = run(args);
    EXPECT_EQ(r.status.code, 0) << r.output;
    return r.output;
  };
  std::string release = manifest({"--config", "Release"});
  EXPECT_NE(release.find("\"-DNDEBUG\""), std::string::npos);
  EXPECT_EQ(release.find("this build has the configurations"), std::string::npos);
  std::string first = manifest({});
  EXPECT_EQ(first.find("\"-DNDEBUG\""), std::string::npos);
  EXPECT_NE(first.find("stark: warning: this build has the configurations Debug, Release, RelWithDebInfo; scanned with "
                       "Debug's flags (--config NAME picks another)"),
            std::string::npos)
      << first;
  auto typo = run({(kPrefix / "bin/stark").string(), "scan", "-p", build_.string(), "--config", "Relase"});
  EXPECT_EQ(typo.status.code, 1);
  EXPECT_NE(typo.output.find("has no configuration 'Relase' (it has Debug, Release, RelWithDebInfo)"),
            std::string::npos)
      << typo.output;
}

}  // namespace
}  // namespace stark::testing
