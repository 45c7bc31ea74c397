#include "rewriter/compile_check.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark::rewriter {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;
using namespace std::chrono_literals;

/// A folder with a fake compiler: a shell script with the given body.
struct FakeCompiler {
  TempDir tmp;
  fs::path dir;
  fs::path program;
  explicit FakeCompiler(const std::string& name, const std::string& body) : tmp("compile-check-" + name) {
    dir = tmp.path();
    program = dir / "nvcc";
    EXPECT_TRUE(write_file_atomic(program, "#!/bin/sh\n" + body));
    ::chmod(program.c_str(), 0755);
  }

  std::vector<CheckFailure> check(std::chrono::milliseconds timeout) const {
    CheckUnit unit;
    unit.command.directory = dir.string();
    unit.command.file = "src/k.cu";
    unit.archs = {"90"};
    unit.kernels = {"src/k.cu:k"};
    CheckSetup setup;
    setup.source_root = dir;
    setup.tree = dir;
    setup.scratch = dir;
    setup.timeout = timeout;
    fs::path compiler = program;
    setup.builder = [compiler](const CompileCommand&, const std::string& sm, const fs::path& output, const fs::path&,
                               const fs::path&) -> Expected<CheckCommand> {
      return CheckCommand{{compiler.string(), "-arch=sm_" + sm, "-o", output.string()}, {}};
    };
    return compile_check({unit}, setup);
  }
};

TEST(CompileCheck, AHungCompilerIsStoppedAtTheLimitWithAOneLineError) {
  FakeCompiler hung("hung", "sleep 30\n");
  auto start = std::chrono::steady_clock::now();
  auto failures = hung.check(300ms);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].sm, "90");
  EXPECT_EQ(failures[0].kernels, std::vector<std::string>{"src/k.cu:k"});
  EXPECT_EQ(failures[0].log, "nvcc did not finish within 0.3 s and was stopped");
}

TEST(CompileCheck, AFailingCompilerShowsItsCommandAndOutput) {
  FakeCompiler failing("failing", "echo \"k.cu(3): error: bad thing\" >&2\nexit 2\n");
  auto failures = failing.check(kNvccTimeout);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].log.rfind("$ " + failing.program.string() + " -arch=sm_90 -o ", 0), 0u) << failures[0].log;
  EXPECT_NE(failures[0].log.find("\nk.cu(3): error: bad thing\n"), std::string::npos) << failures[0].log;
}

TEST(CompileCheck, ACompilerThatSucceedsIsNoFailure) {
  FakeCompiler fine("fine", "exit 0\n");
  EXPECT_TRUE(fine.check(kNvccTimeout).empty());
}

}  // namespace
}  // namespace stark::rewriter
