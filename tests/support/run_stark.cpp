#include "tests/support/run_stark.h"

#include <gtest/gtest.h>

namespace stark::testing {

namespace fs = std::filesystem;

ProcessResult run_stark(const std::string& exe, std::vector<std::string> args, const fs::path& cwd) {
  args.insert(args.begin(), exe);
  auto r = run_process(args, ProcessOptions::in(cwd));
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  return r ? *r : ProcessResult{};
}

}  // namespace stark::testing
