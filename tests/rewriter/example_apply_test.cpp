// The example project (examples/nnops) as its users get it: configured
// against the installed package, given a hand-written result for four of its
// kernels (nnops_kernels.json: a kernel template in a header launched from
// two units, a cudaLaunchKernel site, a 3-D launch override, dynamic shared
// memory), then applied in each mode and built with nvcc. On the GPU
// machine the same build passes the example's own tests (docs/gpu-runs/);
// here the test binary skips without a device.
#include <gtest/gtest.h>

#include "core/file_io.h"
#include "tests/rewriter/swap_project.h"

namespace stark::testing {
namespace {

const fs::path kSource = STARK_SOURCE_DIR;
const fs::path kPrefix = STARK_TEST_PREFIX;
const std::string kStark = (kPrefix / "bin/stark").string();

TEST(ExampleApply, EveryModeBuildsAndTheVariantsAreSwappedIn) {
  const fs::path root = (std::filesystem::path(STARK_BINARY_DIR) / "tests/rewriter-scratch") / "example_apply";
  const fs::path src = root / "nnops", build = root / "build", result = build / "stark/nnops";
  fs::remove_all(root);
  fs::create_directories(root);
  fs::copy(kSource / "examples/nnops", src, fs::copy_options::recursive);

  auto c = run({"cmake", "-S", src.string(), "-B", build.string(), "-G", "Ninja",
                "-DCMAKE_PREFIX_PATH=" + kPrefix.string(), "-DCMAKE_CUDA_COMPILER=" STARK_NVCC_PATH});
  ASSERT_EQ(c.status.code, 0) << c.output;
  auto scan =
      run({kStark, "scan", "-p", build.string(), "--target", "nnops", "-o", (result / "manifest.json").string()});
  ASSERT_EQ(scan.status.code, 0) << scan.output;
  auto manifest = read_json_file(result / "manifest.json");
  ASSERT_TRUE(manifest);
  auto kernels = read_json_file(kSource / "tests/rewriter/nnops_kernels.json");
  ASSERT_TRUE(kernels);
  nlohmann::json r = {{"schema", "stark.result/1"},
                      {"source_root", (*manifest)["source_root"]},
                      {"build_dir", build.string()},
                      {"manifest", "manifest.json"},
                      {"gpu", {{"name", "NVIDIA H200"}, {"sm", "90"}, {"driver", "580.65"}, {"cuda", "13.0"}}},
                      {"backend", {{"name", "builtin"}, {"model", ""}}},
                      {"seed", 1},
                      {"kernels", *kernels}};
  ASSERT_TRUE(write_json_file(result / "result.json", r));

  // patch: every unit compiled for sm_80 and sm_90 first; git takes it.
  auto patch =
      run({kStark, "apply", "--result", result.string(), "--mode", "patch", "-o", (root / "stark.patch").string()});
  ASSERT_EQ(patch.status.code, 0) << patch.output;
  EXPECT_NE(patch.output.find("stark: compile check: 4 translation units, 8 compiles\n"), std::string::npos)
      << patch.output;
  EXPECT_NE(patch.output.find("stark: patch of 4 kernels in 5 files"), std::string::npos) << patch.output;
  ASSERT_EQ(run({"git", "init", "-q", "."}, src).status.code, 0);
  ASSERT_EQ(run({"git", "add", "."}, src).status.code, 0);
  ASSERT_EQ(run({"git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "nnops"}, src).status.code, 0);
  auto check = run({"git", "apply", "--check", "-v", (root / "stark.patch").string()}, src);
  EXPECT_EQ(check.status.code, 0) << check.output;
  EXPECT_NE(check.output.find("Checking patch src/softmax.cu..."), std::string::npos) << check.output;
  std::string diff = read_text(root / "stark.patch");
  EXPECT_NE(diff.find("+  softmax_rows_kernel<<<rows, 256, (cudaFuncSetAttribute(softmax_rows_kernel, "
                      "cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(cols * 4)), (cols * 4)), s>>>"),
            std::string::npos)
      << diff;
  EXPECT_NE(diff.find("+  transpose_kernel<<<dim3(((cols + 31) / 32), ((rows + 31) / 32), 1), dim3(32, 8, 1), 0, s>>>"),
            std::string::npos)
      << diff;

  // variants: the next build reconfigures, applies, and compiles from the tree.
  auto b = run({"cmake", "--build", build.string()});
  ASSERT_EQ(b.status.code, 0) << b.output;
  EXPECT_NE(b.output.find("STARK: nnops: compiling 4 optimized kernel(s)"), std::string::npos) << b.output;
  std::string db = read_text(build / "compile_commands.json");
  EXPECT_NE(db.find((result / "variants/tree/src/softmax.cu").string()), std::string::npos);
  EXPECT_EQ(read_text(result / "variants/tree/src/softmax.cu"),
            read_text(result / "variants/rewritten/src/softmax.cu"));
  auto tests = run({"ctest", "--test-dir", build.string(), "--output-on-failure"});
  EXPECT_EQ(tests.status.code, 0) << tests.output;  // skipped without a GPU, run with one

  // inplace: the sources become what the patch describes, and build.
  auto inplace = run({kStark, "apply", "--result", result.string(), "--mode", "inplace", "--no-compile-check"});
  ASSERT_EQ(inplace.status.code, 0) << inplace.output;
  auto reverse = run({"git", "apply", "--check", "-R", (root / "stark.patch").string()}, src);
  EXPECT_EQ(reverse.status.code, 0) << reverse.output;  // the edited files are exactly the patched ones
  b = run({"cmake", "--build", build.string(), "--target", "nnops"});
  ASSERT_EQ(b.status.code, 0) << b.output;
  EXPECT_NE(b.output.find("changed since it was optimized"), std::string::npos) << b.output;  // stale: originals built
  EXPECT_NE(read_text(build / "compile_commands.json").find((src / "src/softmax.cu").string()), std::string::npos);
}

}  // namespace
}  // namespace stark::testing
