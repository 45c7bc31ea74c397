// The stark command as a user runs it: exit codes, messages, and manifests
// that validate against the contract's JSON Schema.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "core/file_io.h"
#include "core/process.h"
#include "tests/support/run_stark.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

const fs::path kSource = STARK_SOURCE_DIR;
const fs::path kEdgeBuild = fs::path(STARK_BINARY_DIR) / "tests/projects/edge-build";

ProcessResult stark(std::vector<std::string> args) { return testing::run_stark(STARK_EXE, std::move(args)); }

TEST(Cli, VersionAndUsageErrors) {
  auto v = stark({"--version"});
  EXPECT_EQ(v.status.code, 0);
  EXPECT_EQ(v.output.rfind("stark 0.1.0 (clang 19.", 0), 0u) << v.output;

  auto no_dir = stark({"scan"});
  EXPECT_EQ(no_dir.status.code, 2);
  EXPECT_NE(no_dir.output.find("stark: error: --build-dir is required"), std::string::npos) << no_dir.output;

  auto unknown = stark({"frobnicate"});
  EXPECT_EQ(unknown.status.code, 2);
}

TEST(Cli, MissingBuildDirIsOneClearLine) {
  auto r = stark({"scan", "-p", "/nonexistent/build"});
  EXPECT_EQ(r.status.code, 1);
  EXPECT_EQ(r.output, "stark: error: build directory '/nonexistent/build' does not exist\n");

  TempDir tmp;
  fs::path empty = tmp.path();
  auto none = stark({"scan", "-p", empty.string()});
  EXPECT_EQ(none.status.code, 1);
  EXPECT_EQ(std::count(none.output.begin(), none.output.end(), '\n'), 1) << none.output;
}

TEST(Cli, ScanWritesAManifestValidAgainstTheSchema) {
  TempDir tmp;
  fs::path out = tmp.path() / "manifest.json";
  auto r = stark({"scan", "-p", kEdgeBuild.string(), "-o", out.string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("6 kernels (7 instantiations, 11 launch sites) in 4 translation units"), std::string::npos)
      << r.output;
  auto check = run_process({STARK_PYTHON, (kSource / "tests/tools/validate_json.py").string(),
                            (kSource / "tests/schemas/manifest.schema.json").string(), out.string()});
  ASSERT_TRUE(check);
  EXPECT_EQ(check->status.code, 0) << check->output;
}

TEST(Cli, SchemaValidatorCatchesABrokenManifest) {
  // The validator itself must be able to fail, or the test above proves nothing.
  TempDir tmp;
  fs::path dir = tmp.path();
  ASSERT_TRUE(write_json_file(dir / "m.json", {{"schema", "stark.manifest/1"},
                                               {"source_root", "/x"},
                                               {"kernels", {{{"id", "no-colon"}}}},
                                               {"diagnostics", nlohmann::json::array()}}));
  auto check = run_process({STARK_PYTHON, (kSource / "tests/tools/validate_json.py").string(),
                            (kSource / "tests/schemas/manifest.schema.json").string(), (dir / "m.json").string()});
  ASSERT_TRUE(check);
  EXPECT_EQ(check->status.code, 1) << check->output;
}

TEST(Cli, SourceErrorsAreLocatedAndExitOne) {
  TempDir tmp;
  fs::path build = tmp.path();
  nlohmann::json db = nlohmann::json::array();
  for (const char* f : {"good.cu", "bad_option.cu"}) {
    fs::path file = kSource / "tests/projects/bad/src" / f;
    db.push_back({{"directory", build.string()},
                  {"file", file.string()},
                  {"arguments", {STARK_NVCC_PATH, "-I" + (kSource / "include").string(), "-c", file.string()}}});
  }
  ASSERT_TRUE(write_json_file(build / "compile_commands.json", db));
  fs::path out = build / "m.json";
  auto r = stark(
      {"scan", "-p", build.string(), "--source-root", (kSource / "tests/projects/bad").string(), "-o", out.string()});
  EXPECT_EQ(r.status.code, 1);
  EXPECT_NE(r.output.find("src/bad_option.cu:5:16: error: invalid [[stark::optimize]] option: 'budget' expects an "
                          "integer, got 'banana'"),
            std::string::npos)
      << r.output;
  auto m = read_json_file(out);  // the manifest is still written, with the good kernel
  ASSERT_TRUE(m);
  EXPECT_EQ((*m)["kernels"].size(), 1u);
  EXPECT_EQ((*m)["kernels"][0]["id"], "src/good.cu:still_found");
}

TEST(Cli, DoctorParsesAProbeKernel) {
  auto r = stark({"doctor", "--json"});
  EXPECT_EQ(r.status.code, 0) << r.output;
  auto j = nlohmann::json::parse(r.output.substr(r.output.find('{')));
  bool parsed = false;
  for (const auto& c : j["checks"]) parsed |= c["name"] == "test parse" && c["status"] == "ok";
  EXPECT_TRUE(parsed) << r.output;
}

// stark eval is a judge a person calls by hand on a variant file from anywhere:
// the variant check refuses preprocessor injection before nvcc ever reads the
// file (and before a GPU is needed), and says so as a verdict.
TEST(Cli, EvalRefusesAnInjectedVariantBeforeCompilingIt) {
  TempDir tmp;
  fs::path dir = tmp.path();
  fs::path manifest = dir / "manifest.json";
  ASSERT_EQ(stark({"scan", "-p", kEdgeBuild.string(), "-o", manifest.string()}).status.code, 0);
  const std::string kernel =
      "__global__ void axpy_c(int n, float a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] += a * x[i];\n}\n";
  for (const std::string& tail : {std::string("#define cudaGetLastError() (system(\"id\"), cudaSuccess)\n"),
                                  std::string("#ifdef __CUDA_ARCH__\n#include \"/etc/passwd\"\n#endif\n")}) {
    SCOPED_TRACE(tail);
    nlohmann::json variant = {
        {"schema", "stark.variant/1"}, {"kernel", "src/apis.cu:axpy_c"}, {"source", kernel + tail}};
    ASSERT_TRUE(write_file_atomic(dir / "variant.json", variant.dump()));
    auto r = stark({"eval", "--manifest", manifest.string(), "--kernel", "src/apis.cu:axpy_c", "--variant",
                    (dir / "variant.json").string()});
    EXPECT_EQ(r.status.code, 1) << r.output;
    EXPECT_NE(r.output.find("rejected: variant_check: "), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("no CUDA GPU"), std::string::npos) << r.output;
  }
}

// Without a GPU, capture stops before it runs the command: one line that says
// why, exit 1, and the command never started.
TEST(Cli, CaptureWithoutAGpuSaysSoInOneLine) {
  TempDir tmp;
  fs::path marker = tmp.path() / "ran";
  auto r = stark({"capture", "-p", kEdgeBuild.string(), "--", "touch", marker.string()});
  if (r.output.find("no CUDA GPU to capture on") == std::string::npos) GTEST_SKIP() << "this machine has a GPU";
  EXPECT_EQ(r.status.code, 1) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  EXPECT_EQ(r.output.rfind("stark: error: no CUDA GPU to capture on: ", 0), 0u) << r.output;
  EXPECT_FALSE(fs::exists(marker));
}

}  // namespace
}  // namespace stark
