// Test support: a stand-in for a tool that wraps a command (compute-sanitizer,
// ncu), so their runners are tested on machines without them.
#ifndef STARK_TESTS_SUPPORT_STAND_IN_WRAPPER_H
#define STARK_TESTS_SUPPORT_STAND_IN_WRAPPER_H

#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace stark::testing {

/// An executable shell script `name` in a folder of its own. Started as
/// `name OPTIONS... /bin/sh ...`, it records every argument, skips its options
/// (keeping a `--log-file` value in `$log`), runs `before_exec` and then runs
/// the wrapped command in its place, as the real tool would.
class StandInWrapper {
 public:
  explicit StandInWrapper(const std::string& name, const std::string& before_exec = "");

  /// Rewrites the script with other lines before the wrapped command.
  void set_before_exec(const std::string& before_exec);

  std::string path() const { return tool_.string(); }
  /// The folder the script is in, for a test's own files.
  const std::filesystem::path& dir() const { return dir_.path(); }
  /// The arguments it was last started with, one per element (none before its first run).
  std::vector<std::string> args() const;

 private:
  TempDir dir_;
  std::filesystem::path tool_;
};

}  // namespace stark::testing

#endif  // STARK_TESTS_SUPPORT_STAND_IN_WRAPPER_H
