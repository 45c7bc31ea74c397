// `stark apply` and the CMake package given a result folder made to run code:
// a manifest and a build folder that name a script as nvcc, as -ccbin, as a
// -Xcompiler -wrapper and in options files, and a variants fragment (CMake
// code) shipped inside the result. The scripts would create a marker file;
// it never appears, and the compile check still runs with the local nvcc.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "core/file_io.h"
#include "core/manifest.h"
#include "core/process.h"
#include "core/text.h"
#include "tests/support/run_stark.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

ProcessResult run(std::vector<std::string> argv, const fs::path& cwd = {}) {
  auto r = run_process(argv, ProcessOptions::in(cwd));
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : ProcessResult{};
}

fs::path scratch(const std::string& name) {
  fs::path d = fs::path(STARK_BINARY_DIR) / "tests/rewriter-scratch" / ("hostile_cli_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

Manifest edge() {
  auto m = load_manifest(STARK_EDGE_MANIFEST);
  EXPECT_TRUE(m) << m.error().message;
  return m ? *m : Manifest{};
}

/// A script that leaves `marker` behind if anything ever runs it.
fs::path trap(const fs::path& path, const fs::path& marker) {
  EXPECT_TRUE(write_file_atomic(path, "#!/bin/sh\necho \"$0 $*\" >> '" + marker.string() + "'\nexit 0\n"));
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

/// The command of `c` with every way nvcc can be told to run another program.
std::vector<std::string> poisoned(const CompileCommand& c, const fs::path& bin, const fs::path& rsp) {
  std::vector<std::string> args = {(bin / "nvcc").string(),
                                   "-ccbin",
                                   (bin / "cc").string(),
                                   "-Xcompiler=-wrapper," + (bin / "wrapper").string(),
                                   "-Xcompiler",
                                   "-B" + bin.string(),
                                   "--options-file",
                                   rsp.string()};
  args.insert(args.end(), c.arguments.begin() + 1, c.arguments.end());
  return args;
}

json result_over(const Manifest& m, const fs::path& manifest_path, const json& kernels) {
  return {{"schema", "stark.result/1"},
          {"source_root", m.source_root},
          {"build_dir", m.build_dir},
          {"manifest", manifest_path},
          {"gpu", nullptr},
          {"backend", {{"name", "builtin"}}},
          {"seed", 1},
          {"kernels", kernels}};
}

json axpy_improved() {
  return {{"id", "src/apis.cu:axpy_c"},
          {"status", "improved"},
          {"best",
           {{"source",
             "__global__ void axpy_c(int n, float a, const float* x, float* y) {\n"
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = a * x[i] + y[i];\n}"}}},
          {"tree", json::array()}};
}

TEST(HostileResultCli, ApplyNeverRunsACompilerTheResultNames) {
  Manifest m = edge();
  const fs::path dir = scratch("compiler"), bin = dir / "bin", marker = dir / "MARKER";
  for (const char* name : {"nvcc", "cc", "wrapper", "ld", "as", "cc1plus"}) trap(bin / name, marker);
  const fs::path fake_build = dir / "build";
  ASSERT_TRUE(write_file_atomic(dir / "outside.rsp", "-ccbin " + (bin / "cc").string() + "\n"));
  ASSERT_TRUE(write_file_atomic(fake_build / "inside.rsp",
                                "-ccbin=" + (bin / "cc").string() + " -Xcompiler=-B" + bin.string() + "\n"));
  // The build folder the result names: the edge build's database, poisoned,
  // and a CMake cache naming the trap as the CUDA and host compiler.
  auto real_db = read_json_file(fs::path(m.build_dir) / "compile_commands.json");
  ASSERT_TRUE(real_db);
  json db = json::array();
  for (auto e : *real_db) {
    CompileCommand c;
    c.arguments = e.contains("arguments") ? e["arguments"].get<std::vector<std::string>>()
                                          : shell_split(e["command"].get<std::string>());
    e.erase("command");
    e["arguments"] = poisoned(c, bin, dir / "outside.rsp");
    e["arguments"].push_back("--options-file=" + (fake_build / "inside.rsp").string());
    db.push_back(e);
  }
  ASSERT_TRUE(write_json_file(fake_build / "compile_commands.json", db));
  ASSERT_TRUE(write_file_atomic(fake_build / "CMakeCache.txt",
                                "CMAKE_CUDA_COMPILER:FILEPATH=" + (bin / "nvcc").string() +
                                    "\nCMAKE_CUDA_HOST_COMPILER:FILEPATH=" + (bin / "cc").string() + "\n"));
  // The manifest: every kernel's own command poisoned the same way.
  for (auto& k : m.kernels)
    if (k.compile) k.compile->arguments = poisoned(*k.compile, bin, dir / "outside.rsp");
  m.build_dir = fake_build.string();
  ASSERT_TRUE(write_json_file(dir / "manifest.json", json(m)));
  ASSERT_TRUE(
      write_json_file(dir / "result.json", result_over(m, dir / "manifest.json", json::array({axpy_improved()}))));

  auto r = testing::run_stark(STARK_EXE, {"apply", "--result", dir.string(), "-j", "2"});
  EXPECT_FALSE(fs::exists(marker)) << *read_file(marker);
  EXPECT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("stark: compile check: 1 translation unit, 2 compiles\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("stark: patch of 1 kernel in 1 file"), std::string::npos) << r.output;
}

// A fragment is CMake code: one that came inside a result folder was
// included (and so run) at configure time before anything checked it.
TEST(HostileResultCli, TheCMakePackageNeverIncludesAFragmentItDidNotWrite) {
  Manifest m = edge();
  const fs::path dir = scratch("fragment"), result = dir / "result", marker = dir / "MARKER";
  ASSERT_TRUE(write_json_file(result / "manifest.json", json(m)));
  json no_gain = axpy_improved();
  no_gain["status"] = "no_gain";
  ASSERT_TRUE(
      write_json_file(result / "result.json", result_over(m, result / "manifest.json", json::array({no_gain}))));
  auto sha = run({"sha256sum", (result / "result.json").string()}).output.substr(0, 64);
  ASSERT_TRUE(write_file_atomic(result / "variants/stark-variants.cmake",
                                "file(WRITE \"" + marker.string() +
                                    "\" \"configure-time code from a result\")\n"
                                    "set(STARK_VARIANTS_VERSION 1)\nset(STARK_VARIANTS_RESULT_SHA256 \"" +
                                    sha +
                                    "\")\n"
                                    "set(STARK_VARIANTS_TREE \"" +
                                    result.string() + "\")\n"));
  ASSERT_TRUE(write_file_atomic(dir / "project/CMakeLists.txt",
                                "cmake_minimum_required(VERSION 3.24)\nproject(hostile LANGUAGES NONE)\n"
                                "add_executable(STARK::stark IMPORTED)\n"
                                "set_target_properties(STARK::stark PROPERTIES IMPORTED_LOCATION \"" STARK_EXE "\")\n"
                                "include(\"" STARK_SOURCE_DIR "/cmake_module/STARKVariants.cmake\")\n"
                                "add_library(victim INTERFACE)\nset(STARK_USE_VARIANTS ON)\n"
                                "_stark_use_variants(victim \"" +
                                    result.string() + "\")\n"));
  auto configure = [&] {
    return run({STARK_CMAKE, "-S", (dir / "project").string(), "-B", (dir / "project/build").string()});
  };
  auto first = configure();
  EXPECT_EQ(first.status.code, 0) << first.output;
  EXPECT_FALSE(fs::exists(marker)) << first.output;
  EXPECT_NE(first.output.find("stark apply --mode variants"), std::string::npos) << first.output;
  auto fragment = read_file(result / "variants/stark-variants.cmake");
  ASSERT_TRUE(fragment);
  EXPECT_EQ(fragment->find("file(WRITE"), std::string::npos) << *fragment;

  // The fragment this build's apply wrote is used as it is, without another apply.
  auto second = configure();
  EXPECT_EQ(second.status.code, 0) << second.output;
  EXPECT_EQ(second.output.find("applying"), std::string::npos) << second.output;
}

}  // namespace
}  // namespace stark
