#include "harness/compile/nvcc_command.h"
#include "tests/support/argv.h"
#include "tests/support/temp_dir.h"

#include <vector>
#include <string>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace stark::harness {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

using stark::testing::has;

CompileCommand cmake_style() {
  CompileCommand cc;
  cc.directory = "/proj/build";
  cc.file = "/proj/src/ops.cu";
  cc.arguments = {"/usr/local/cuda/bin/nvcc",
                  "-forward-unknown-to-host-compiler",
                  "-DNDEBUG",
                  "-I/proj/include",
                  "-I../src",
                  "-isystem",
                  "/usr/include/x",
                  "-O3",
                  "-std=c++17",
                  "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                  "-Xcompiler=-fPIC",
                  "-MD",
                  "-MT",
                  "CMakeFiles/ops.dir/src/ops.cu.o",
                  "-MF",
                  "CMakeFiles/ops.dir/src/ops.cu.o.d",
                  "-x",
                  "cu",
                  "-c",
                  "/proj/src/ops.cu",
                  "-o",
                  "CMakeFiles/ops.dir/src/ops.cu.o"};
  cc.archs = {"90"};
  return cc;
}

TEST(NvccCommand, CubinForOneArchWithShadowedPaths) {
  NvccCommandSpec spec;
  spec.sm = "90";
  spec.output = "/cache/out.cubin";
  spec.source_root = "/proj";
  spec.shadow_root = "/tmp/shadow-1";
  auto argv = nvcc_command(cmake_style(), spec);
  ASSERT_TRUE(argv) << argv.error().message;
  const auto& a = *argv;
  EXPECT_EQ(a.front(), "/usr/local/cuda/bin/nvcc");
  EXPECT_EQ(a.back(), "/tmp/shadow-1/src/ops.cu");
  EXPECT_TRUE(has(a, "-I/tmp/shadow-1/include"));
  EXPECT_TRUE(has(a, "-I/tmp/shadow-1/src"));  // relative to the build folder, inside the root
  EXPECT_TRUE(has(a, "/usr/include/x"));       // outside the root: unchanged
  EXPECT_TRUE(has(a, "-DNDEBUG"));
  EXPECT_TRUE(has(a, "-O3"));
  EXPECT_TRUE(has(a, "-std=c++17"));
  EXPECT_TRUE(has(a, "-Xcompiler=-fPIC"));
  EXPECT_TRUE(has(a, "-cubin"));
  EXPECT_TRUE(has(a, "-arch=sm_90"));
  EXPECT_FALSE(has(a, "-c"));
  EXPECT_FALSE(has(a, "-MD"));
  EXPECT_FALSE(has(a, "CMakeFiles/ops.dir/src/ops.cu.o"));
  EXPECT_FALSE(has(a, "CMakeFiles/ops.dir/src/ops.cu.o.d"));
  EXPECT_EQ(std::count_if(a.begin(), a.end(),
                          [](const std::string& s) { return s.find("generate-code") != std::string::npos; }),
            0);
  auto o = std::find(a.begin(), a.end(), "-o");
  ASSERT_NE(o, a.end());
  EXPECT_EQ(*(o + 1), "/cache/out.cubin");
}

// nvcc's boolean and list options take their value as the next argument:
// "-ftz true" and "-Werror all-warnings" reach the candidate's compile as
// pairs (read as flags, "true" was a second source file to nvcc).
TEST(NvccCommand, OptionsWithASeparateValueKeepIt) {
  auto cc = cmake_style();
  for (const char* a : {"all-warnings", "-Werror", "true", "-ftz", "false", "-prec-div"})
    cc.arguments.insert(cc.arguments.begin() + 1, a);
  NvccCommandSpec spec;
  spec.sm = "90";
  spec.output = "out.cubin";
  auto argv = nvcc_command(cc, spec);
  ASSERT_TRUE(argv) << argv.error().message;
  EXPECT_TRUE(stark::testing::has_pair(*argv, "-prec-div", "false"));
  EXPECT_TRUE(stark::testing::has_pair(*argv, "-ftz", "true"));
  EXPECT_TRUE(stark::testing::has_pair(*argv, "-Werror", "all-warnings"));
  EXPECT_EQ(argv->back(), "/proj/src/ops.cu");
}

TEST(NvccCommand, ObjectAndDependencyModes) {
  NvccCommandSpec spec;
  spec.sm = "80";
  spec.mode = CompileMode::Object;
  spec.output = "x.o";
  spec.dependency_file = "x.d";
  auto obj = nvcc_command(cmake_style(), spec);
  ASSERT_TRUE(obj);
  EXPECT_TRUE(has(*obj, "-c"));
  EXPECT_TRUE(has(*obj, "-arch=sm_80"));
  EXPECT_TRUE(has(*obj, "-MD"));
  EXPECT_TRUE(has(*obj, "x.d"));
  EXPECT_EQ(obj->back(), "/proj/src/ops.cu");  // no shadow: unchanged
  spec.mode = CompileMode::Dependencies;
  auto deps = nvcc_command(cmake_style(), spec);
  ASSERT_TRUE(deps);
  EXPECT_TRUE(has(*deps, "-M"));
  EXPECT_FALSE(has(*deps, "-c"));
}

TEST(NvccCommand, RelocatableDeviceCodeStaysRelocatable) {
  for (std::vector<std::string> extra :
       {std::vector<std::string>{"-rdc=true"}, {"-rdc", "true"}, {"-dc"}, {"--relocatable-device-code=true"}}) {
    auto cc = cmake_style();
    cc.arguments.insert(cc.arguments.begin() + 1, extra.begin(), extra.end());
    EXPECT_TRUE(is_relocatable(cc)) << extra[0];
    NvccCommandSpec spec;
    spec.sm = "90";
    auto argv = nvcc_command(cc, spec);
    ASSERT_TRUE(argv) << extra[0] << ": " << argv.error().message;
    EXPECT_TRUE(has(*argv, "-cubin"));
    EXPECT_FALSE(has(*argv, "-dc")) << "-dc compiles to an object; the cubin mode is ours";
    bool rdc = has(*argv, "-rdc=true") || has(*argv, "--relocatable-device-code=true") || has(*argv, "true");
    EXPECT_TRUE(rdc) << extra[0];
  }
  auto cc = cmake_style();
  cc.arguments.insert(cc.arguments.begin() + 1, "-rdc=false");
  EXPECT_FALSE(is_relocatable(cc));
  NvccCommandSpec spec;
  spec.sm = "90";
  EXPECT_TRUE(nvcc_command(cc, spec));
  cc.arguments.insert(cc.arguments.begin() + 1, "-ewp");
  auto ewp = nvcc_command(cc, spec);
  ASSERT_FALSE(ewp);
  EXPECT_NE(ewp.error().message.find("-ewp"), std::string::npos);
}

TEST(NvccCommand, TheDeviceLinkTakesTheTargetsOtherObjects) {
  TempDir tmp;
  const fs::path& build = tmp.path();
  fs::path objects = build / "CMakeFiles/ops.dir/src";
  fs::create_directories(objects / "detail");
  for (const char* f : {"ops.cu.o", "helpers.cu.o", "detail/tables.cu.o", "notes.txt"})
    std::ofstream(objects / f) << "x";
  std::ofstream(build / "CMakeFiles/ops.dir/cmake_device_link.o") << "x";
  fs::create_directories(build / "CMakeFiles/other.dir");
  std::ofstream(build / "CMakeFiles/other.dir/other.cu.o") << "x";
  CompileCommand cc{
      build.string(),
      "/proj/src/ops.cu",
      {"/usr/local/cuda/bin/nvcc", "-rdc=true", "-o", "CMakeFiles/ops.dir/src/ops.cu.o", "-c", "/proj/src/ops.cu"},
      "ops",
      {"90"}};
  auto found = device_link_objects(cc);
  EXPECT_EQ(found, (std::vector<fs::path>{objects / "detail/tables.cu.o", objects / "helpers.cu.o"}));
  auto argv = device_link_command("nvcc", "90", "k.cubin", found, "linked.cubin");
  EXPECT_EQ(argv[0], "nvcc");
  EXPECT_TRUE(has(argv, "-dlink"));
  EXPECT_TRUE(has(argv, "-cubin"));
  EXPECT_TRUE(has(argv, "-arch=sm_90"));
  EXPECT_EQ(argv.back(), "linked.cubin");
  cc.arguments = {"nvcc", "-rdc=true", "-c", "/proj/src/ops.cu"};
  EXPECT_TRUE(device_link_objects(cc).empty()) << "no output named: nothing to guess";
}

TEST(NvccCommand, OtherCompilersAndLaunchersAndOptionFiles) {
  auto cc = cmake_style();
  cc.arguments[0] = "clang++";
  NvccCommandSpec spec;
  spec.sm = "90";
  auto bad = nvcc_command(cc, spec);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("not nvcc"), std::string::npos);

  TempDir tmp;
  const fs::path& dir = tmp.path();
  std::ofstream(dir / "includes.rsp") << "-I/proj/generated \"-I/proj/with space\"";
  cc = cmake_style();
  cc.directory = dir.string();
  cc.arguments[0] = "nvcc";
  cc.arguments.insert(cc.arguments.begin(), "ccache");
  cc.arguments.insert(cc.arguments.begin() + 2, {"--options-file", "includes.rsp"});
  spec.source_root = "/proj";
  spec.shadow_root = "/s";
  spec.nvcc = "/opt/cuda/bin/nvcc";
  auto ok = nvcc_command(cc, spec);
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ok->front(), "/opt/cuda/bin/nvcc");
  EXPECT_TRUE(has(*ok, "-I/s/generated"));
  EXPECT_TRUE(has(*ok, "-I/s/with space"));
  EXPECT_FALSE(has(*ok, "ccache"));
}

TEST(NvccCommand, MissingSourceFile) {
  auto cc = cmake_style();
  cc.file = "/proj/src/other.cu";
  NvccCommandSpec spec;
  spec.sm = "90";
  auto argv = nvcc_command(cc, spec);
  ASSERT_FALSE(argv);
  EXPECT_NE(argv.error().message.find("does not name its source file"), std::string::npos);
}

TEST(MakeDeps, Parses) {
  auto deps = parse_make_deps("out.cubin : a.cu \\\n    /usr/include/x.h \\\n    with\\ space.h\n");
  EXPECT_EQ(deps, (std::vector<std::string>{"/usr/include/x.h", "a.cu", "with space.h"}));
  EXPECT_EQ(parse_make_deps("a.o: b.c\nc.o: d.c\n"), (std::vector<std::string>{"b.c", "d.c"}));
}

}  // namespace
}  // namespace stark::harness
