// examples/ci/stark.yml: valid YAML with the structure its README documents,
// checked by tests/ci/check_workflow.py, which must also catch broken copies.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/file_io.h"
#include "core/process.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

const fs::path kSource = STARK_SOURCE_DIR;

ProcessResult check(const fs::path& workflow) {
  auto r = run_process({STARK_PYTHON, (kSource / "tests/ci/check_workflow.py").string(), workflow.string()});
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : ProcessResult{};
}

/// The workflow with `from` replaced by `to` (which must occur), in a file of its own.
fs::path mutated(const std::string& name, const std::string& from, const std::string& to) {
  auto text = read_file(kSource / "examples/ci/stark.yml");
  EXPECT_TRUE(text);
  std::string t = *text;
  size_t at = t.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) t.replace(at, from.size(), to);
  static const TempDir dir;  // the files outlive this call; the folder goes when the binary exits
  fs::path file = dir / (name + ".yml");
  EXPECT_TRUE(write_file_atomic(file, t));
  return file;
}

TEST(Workflow, TheExampleHasTheDocumentedStructure) {
  auto r = check(kSource / "examples/ci/stark.yml");
  EXPECT_EQ(r.status.code, 0) << r.output;
  EXPECT_EQ(r.output, "");
}

TEST(Workflow, TheCheckerCatchesBrokenWorkflows) {
  struct Case {
    const char* name;
    std::string from, to, expect;
    int code = 1;
  };
  std::vector<Case> cases = {
      {"no_pr", "  pull_request:\n", "  push:\n", "no pull_request trigger"},
      {"no_upload", "actions/upload-artifact@v4", "actions/cache@v4", "no upload step"},
      {"no_gpu", "runs-on: [self-hosted, linux, gpu]", "runs-on: ubuntu-latest",
       "runs-on must name self-hosted and gpu"},
      {"forks", "    if: github.event.pull_request.head.repo.full_name == github.repository\n", "",
       "the job must skip pull requests from forks"},
      {"no_sarif_report", "--format sarif", "--format text", "no stark report --format sarif"},
      {"bad_shell", "            if [ \"$found\" -eq 0 ]; then", "            if [ \"$found\" -eq 0 ]",
       "does not parse"},
      {"not_yaml", "name: STARK\n", "name: STARK\n  bad: [unclosed\n", "not valid YAML", 2},
  };
  for (const auto& c : cases) {
    auto r = check(mutated(c.name, c.from, c.to));
    EXPECT_EQ(r.status.code, c.code) << c.name << ": " << r.output;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << c.name << ": " << r.output;
  }
}

}  // namespace
}  // namespace stark
