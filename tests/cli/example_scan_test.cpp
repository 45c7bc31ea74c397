// The installed stark (find_package(STARK) layout) scanning the example
// project configured against it: every annotated kernel found, and every
// device symbol equal to what nvcc produces.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>

#include "core/file_io.h"
#include "core/manifest.h"
#include "core/process.h"
#include "tests/support/nvcc_symbols.h"
#include "tests/support/run_stark.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

const fs::path kBuild = fs::path(STARK_BINARY_DIR) / "tests/projects/nnops-build";

class ExampleScan : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir;
    path_ = new fs::path(dir_->path() / "scan" / "manifest.json");
    auto r = testing::run_stark(STARK_EXE, {"scan", "-p", kBuild.string(), "--target", "nnops", "-o", path_->string()});
    output_ = new std::string(r.output);
    ASSERT_EQ(r.status.code, 0) << r.output;
  }
  static void TearDownTestSuite() {
    delete path_;
    delete output_;
    delete dir_;
  }
  static Manifest manifest() {
    auto m = load_manifest(path_->string());
    EXPECT_TRUE(m) << m.error().message;
    return m ? *m : Manifest{};
  }
  static testing::TempDir* dir_;
  static fs::path* path_;
  static std::string* output_;
};
testing::TempDir* ExampleScan::dir_ = nullptr;
fs::path* ExampleScan::path_ = nullptr;
std::string* ExampleScan::output_ = nullptr;

TEST_F(ExampleScan, FindsEveryAnnotatedKernel) {
  Manifest m = manifest();
  EXPECT_TRUE(m.diagnostics.empty()) << *output_;
  std::set<std::string> ids;
  for (const auto& k : m.kernels) ids.insert(k.id);
  EXPECT_EQ(
      ids, (std::set<std::string>{"include/nnops/detail/activation.cuh:nnops::detail::relu_kernel",
                                  "src/elementwise.cu:nnops::saxpy_kernel", "src/histogram.cu:nnops::histogram_kernel",
                                  "src/layernorm.cu:nnops::layer_norm_kernel", "src/matmul.cu:nnops::matmul_kernel",
                                  "src/reduce.cu:nnops::reduce_sum_kernel", "src/softmax.cu:nnops::softmax_rows_kernel",
                                  "src/transpose.cu:nnops::transpose_kernel"}));
  for (const auto& k : m.kernels) {
    EXPECT_FALSE(k.launches.empty()) << k.id << " has no launch site";
    ASSERT_TRUE(k.compile) << k.id;
    EXPECT_EQ(k.compile->target, "nnops");
    EXPECT_EQ(k.compile->archs, (std::vector<std::string>{"80", "90"}));
  }
  const Kernel* relu = m.find_kernel("include/nnops/detail/activation.cuh:nnops::detail::relu_kernel");
  ASSERT_TRUE(relu);
  EXPECT_EQ(relu->instantiations.size(), 2u);  // float and double, from two units
}

TEST_F(ExampleScan, DeviceSymbolsEqualNvccOutput) {
  Manifest m = manifest();
  std::map<std::string, CompileCommand> units;
  for (const auto& k : m.kernels)
    if (k.compile) units.emplace(k.compile->file, *k.compile);
  // relu<double> is instantiated only by elementwise_f64.cu, which defines no other annotated kernel.
  for (const auto& entry : fs::directory_iterator(fs::path(m.source_root) / "src"))
    if (entry.path().extension() == ".cu" && !units.count(entry.path().string())) {
      CompileCommand c = units.begin()->second;
      for (auto& a : c.arguments)
        if (a == c.file) a = entry.path().string();
      c.file = entry.path().string();
      units.emplace(c.file, c);
    }
  std::set<std::string> symbols;
  for (const auto& [file, c] : units) symbols.merge(testing::nvcc_kernel_symbols(c));
  EXPECT_TRUE(symbols.count("_ZN5nnops11fill_kernelEifPf")) << "the non-annotated kernel should be in the cubins";
  size_t n = 0;
  for (const auto& k : m.kernels)
    for (const auto& inst : k.instantiations) {
      EXPECT_TRUE(symbols.count(inst.mangled)) << k.id << ": " << inst.mangled;
      ++n;
    }
  EXPECT_EQ(n, 9u);
}

TEST_F(ExampleScan, ValidatesAgainstTheSchema) {
  auto check = run_process({STARK_PYTHON, std::string(STARK_SOURCE_DIR) + "/tests/tools/validate_json.py",
                            std::string(STARK_SOURCE_DIR) + "/tests/schemas/manifest.schema.json", path_->string()});
  ASSERT_TRUE(check);
  EXPECT_EQ(check->status.code, 0) << check->output;
}

}  // namespace
}  // namespace stark
