#include "tests/support/run_stark.h"

#include <gtest/gtest.h>

namespace stark::test_support {

namespace fs = std::filesystem;

ProcessResult run_stark(const std::string& exe, std::vector<std::string> args, const fs::path& cwd) {
  args.insert(args.begin(), exe);
  auto r = run_process(args, ProcessOptions::in(cwd));
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : ProcessResult{};
}

fs::path scratch_folder(const std::string& suite, const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("stark_" + suite + "_" + name);
  std::error_code ec;
  fs::remove_all(d, ec);
  return d;
}

}  // namespace stark::test_support
