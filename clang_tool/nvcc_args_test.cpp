#include "clang_tool/nvcc_args.h"
#include "tests/support/argv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

using V = std::vector<std::string>;

V shell_split_for_test() {
  return {"/opt/cuda/bin/nvcc",
          "-forward-unknown-to-host-compiler",
          "-DNDEBUG",
          "-DNAME=\"x y\"",
          "-UOLD",
          "-I/s/include",
          "-I",
          "gen",
          "-isystem=/sys/inc",
          "-O3",
          "--use_fast_math",
          "-std=c++20",
          "--expt-relaxed-constexpr",
          "-Xcompiler=-DFROM_HOST=1,-fPIC",
          "-diag-suppress=2803",
          "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
          "-rdc=true",
          "-lineinfo",
          "-MD",
          "-MT",
          "obj.o",
          "-MF",
          "obj.d",
          "-x",
          "cu",
          "-c",
          "/s/src/a.cu",
          "-o",
          "obj.o"};
}

using stark::testing::has;
using stark::testing::has_pair;

TEST(Archs, EveryNvccSpelling) {
  EXPECT_EQ(archs_of({"nvcc", "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                      "--generate-code=arch=compute_90,code=[compute_90,sm_90]"}),
            (V{"80", "90"}));
  EXPECT_EQ(archs_of({"nvcc", "-gencode", "arch=compute_90a,code=sm_90a"}), (V{"90a"}));
  EXPECT_EQ(archs_of({"nvcc", "-arch=sm_100"}), (V{"100"}));
  EXPECT_EQ(archs_of({"nvcc", "--gpu-architecture", "compute_86"}), (V{"86"}));
  EXPECT_EQ(archs_of({"nvcc", "-c", "x.cu"}), (V{"75"}));  // CMake's CUDA 13 default
}

TEST(Archs, ClangKnowsOnlyUpToSm90) {
  EXPECT_EQ(clang_gpu_arch({"80", "120"}), "sm_90");
  EXPECT_EQ(clang_gpu_arch({"75"}), "sm_75");
  EXPECT_EQ(clang_gpu_arch({"80", "86"}), "sm_86");
}

TEST(ClangArguments, TranslatesCMakeNvccCommand) {
  CompileCommand c;
  c.directory = "/b";
  c.file = "/s/src/a.cu";
  c.arguments = shell_split_for_test();
  ClangSetup setup{"/res", "/stubs"};
  V out = clang_arguments(c, setup);
  EXPECT_EQ(out.front(), "clang++");
  EXPECT_EQ(out.back(), "/s/src/a.cu");
  EXPECT_TRUE(has_pair(out, "-x", "cuda"));
  EXPECT_TRUE(has(out, "--cuda-host-only"));
  EXPECT_TRUE(has(out, "-resource-dir=/res"));
  EXPECT_TRUE(has(out, "--cuda-path=/opt/cuda"));  // from the nvcc path
  EXPECT_TRUE(has(out, "--cuda-gpu-arch=sm_90"));
  EXPECT_TRUE(has(out, "-Wno-unknown-cuda-version"));
  EXPECT_TRUE(has_pair(out, "-isystem", "/opt/cuda/include/cccl"));
  EXPECT_TRUE(has_pair(out, "-isystem", "/stubs"));
  EXPECT_TRUE(has_pair(out, "-include", "/stubs/stark_nvcc_compat.h"));
  EXPECT_TRUE(has_pair(out, "-I", "/s/include"));
  EXPECT_TRUE(has_pair(out, "-I", "/b/gen"));  // relative to the command's directory
  EXPECT_TRUE(has_pair(out, "-isystem", "/sys/inc"));
  EXPECT_TRUE(has(out, "-DNDEBUG"));
  EXPECT_TRUE(has(out, "-DNAME=\"x y\""));
  EXPECT_TRUE(has(out, "-DFROM_HOST=1")) << ::testing::PrintToString(out);  // -Xcompiler=-DFROM_HOST=1,-fPIC
  EXPECT_TRUE(has(out, "-UOLD"));
  EXPECT_TRUE(has(out, "-std=c++20"));
  for (const char* dropped : {"-forward-unknown-to-host-compiler", "--expt-relaxed-constexpr", "-fPIC", "cu", "-MD",
                              "-MT", "obj.o", "-o", "-c", "-O3", "--use_fast_math", "-diag-suppress=2803",
                              "--generate-code=arch=compute_90,code=[compute_90,sm_90]", "-rdc=true", "-lineinfo"})
    EXPECT_FALSE(has(out, dropped)) << dropped;
}

// A flag is no option with a value: "-dlto -DWIDE=1" keeps the macro
// (read as taking a value, -dlto swallowed it), and "-ftz true" drops both.
TEST(ClangArguments, AFlagDoesNotSwallowTheNextArgument) {
  CompileCommand c;
  c.directory = "/b";
  c.file = "/s/src/a.cu";
  c.arguments = {"/opt/cuda/bin/nvcc", "-dlto", "-DWIDE=1", "-arch-ls", "-DTALL=2", "-ftz", "true", "-c",
                 "/s/src/a.cu"};
  V out = clang_arguments(c, ClangSetup{"/res", "/stubs"});
  EXPECT_TRUE(has(out, "-DWIDE=1")) << ::testing::PrintToString(out);
  EXPECT_TRUE(has(out, "-DTALL=2")) << ::testing::PrintToString(out);
  EXPECT_FALSE(has(out, "true"));
  EXPECT_EQ(out.back(), "/s/src/a.cu");
}

TEST(ClangArguments, DefaultsToCxx17AndExpandsOptionFiles) {
  stark::testing::TempDir tmp;
  const auto& dir = tmp.path();
  ASSERT_TRUE(write_file_atomic(dir / "includes.rsp", "-I\"inc dir\" -DFROM_FILE"));
  CompileCommand c{dir.string(), "/s/a.cu", {"nvcc", "--options-file", "includes.rsp", "-c", "/s/a.cu"}, "", {}};
  V out = clang_arguments(c, {"/res", "/stubs"});
  EXPECT_TRUE(has(out, "-std=c++17"));
  EXPECT_TRUE(has_pair(out, "-I", (dir / "inc dir").string()));
  EXPECT_TRUE(has(out, "-DFROM_FILE"));
  EXPECT_TRUE(has(out, "--cuda-gpu-arch=sm_75"));
}

}  // namespace
}  // namespace stark
