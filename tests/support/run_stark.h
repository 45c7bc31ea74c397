// Running the `stark` under test from a test, as a user runs it.
#ifndef STARK_TESTS_SUPPORT_RUN_STARK_H
#define STARK_TESTS_SUPPORT_RUN_STARK_H

#include <filesystem>
#include <string>
#include <vector>

#include "core/process.h"

namespace stark::testing {

/// Runs `exe args...` in `cwd` (empty: the test's own folder) and returns
/// what it printed; a program that could not start fails the calling test.
ProcessResult run_stark(const std::string& exe, std::vector<std::string> args, const std::filesystem::path& cwd = {});

}  // namespace stark::testing

#endif  // STARK_TESTS_SUPPORT_RUN_STARK_H
