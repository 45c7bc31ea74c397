#include "clang_tool/build_info.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

TEST(CompileCommands, BothEntryFormsAndRelativeFiles) {
  TempDir tmp;
  const fs::path& dir = tmp.path();
  nlohmann::json db = nlohmann::json::array(
      {{{"directory", dir.string()},
        {"file", "src/a.cu"},
        {"command", "/usr/local/cuda/bin/nvcc -DX=\"a b\" -c src/a.cu"}},
       {{"directory", dir.string()}, {"file", (dir / "b.cpp").string()}, {"arguments", {"g++", "-c", "b.cpp"}}},
       {{"directory", dir.string()}, {"file", "c.cc"}, {"arguments", {"nvcc", "-x", "cu", "-c", "c.cc"}}}});
  ASSERT_TRUE(write_json_file(dir / "compile_commands.json", db));

  auto cmds = read_compile_commands(dir / "compile_commands.json");
  ASSERT_TRUE(cmds) << cmds.error().message;
  ASSERT_EQ(cmds->size(), 3u);
  EXPECT_EQ((*cmds)[0].file, (dir / "src/a.cu").string());
  EXPECT_EQ((*cmds)[0].arguments[1], "-DX=a b");
  EXPECT_TRUE(is_cuda_unit((*cmds)[0]));
  EXPECT_FALSE(is_cuda_unit((*cmds)[1]));
  EXPECT_TRUE(is_cuda_unit((*cmds)[2]));

  auto info = load_build_info(dir, "");
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_FALSE(info->from_file_api);
  EXPECT_EQ(info->units.size(), 2u);  // the C++ file is not a CUDA unit
}

TEST(BuildInfo, ClearErrors) {
  auto missing = load_build_info("/nonexistent/stark/build", "");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "build directory '/nonexistent/stark/build' does not exist");

  TempDir empty_dir, ccdb_only_dir;
  const fs::path& empty = empty_dir.path();
  auto none = load_build_info(empty, "");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("has no compile_commands.json and is not a CMake build tree"), std::string::npos);

  const fs::path& ccdb_only = ccdb_only_dir.path();
  ASSERT_TRUE(write_json_file(ccdb_only / "compile_commands.json", nlohmann::json::array()));
  auto target = load_build_info(ccdb_only, "lib");
  ASSERT_FALSE(target);
  EXPECT_NE(target.error().message.find("--target needs a CMake build tree"), std::string::npos);

  ASSERT_TRUE(write_file_atomic(ccdb_only / "compile_commands.json", "[{"));
  auto broken = load_build_info(ccdb_only, "");
  ASSERT_FALSE(broken);
  EXPECT_NE(broken.error().message.find("is not valid JSON"), std::string::npos);
}

}  // namespace
}  // namespace stark
