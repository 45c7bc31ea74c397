#include "rewriter/check_command.h"
#include "tests/support/argv.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace stark::rewriter {
namespace {

using stark::testing::has;

CompileCommand unit(std::vector<std::string> flags) {
  CompileCommand c;
  c.directory = "/proj/build";
  c.file = "/proj/src/filters.cu";
  c.arguments = {"/usr/local/cuda/bin/nvcc"};
  c.arguments.insert(c.arguments.end(), flags.begin(), flags.end());
  c.arguments.insert(c.arguments.end(), {"-o", "CMakeFiles/f.dir/src/filters.cu.o", "/proj/src/filters.cu"});
  return c;
}

// A separable-compilation unit that calls another unit's device function
// compiles only as relocatable code: the check keeps it relocatable.
TEST(CheckCommand, RelocatableUnitsAreCheckedAsRelocatable) {
  const CheckToolchain toolchain{"/usr/local/cuda/bin/nvcc", "", "/proj/build"};
  for (const char* flag : {"-dc", "--device-c"}) {
    auto c = check_command(unit({flag}), "90", "/tmp/out.o", "/proj", "", toolchain);
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_TRUE(has(c->argv, "-rdc=true")) << flag;
    EXPECT_FALSE(has(c->argv, flag));
    EXPECT_TRUE(has(c->argv, "-c"));
  }
  auto kept = check_command(unit({"-rdc=true"}), "90", "/tmp/out.o", "/proj", "", toolchain);
  ASSERT_TRUE(kept) << kept.error().message;
  EXPECT_TRUE(has(kept->argv, "-rdc=true"));
}

}  // namespace
}  // namespace stark::rewriter
