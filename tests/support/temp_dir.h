// The one way a test gets a temporary folder. It is a ScratchDir, so a test
// binary that is killed mid-run leaves a folder the next run removes.
#ifndef STARK_TESTS_SUPPORT_TEMP_DIR_H
#define STARK_TESTS_SUPPORT_TEMP_DIR_H

#include <filesystem>
#include <string>

#include "core/scratch_dir.h"

namespace stark::testing {

/// A fresh empty folder for one test, removed with its contents when the
/// object goes; throws when it cannot be made, which fails the test.
class TempDir {
 public:
  /// `what` names the folder (`stark-<what>-<pid>-XXXXXX`) to tell tests apart in $TMPDIR.
  explicit TempDir(const std::string& what = "test");

  const std::filesystem::path& path() const { return dir_.path(); }
  std::filesystem::path operator/(const std::string& name) const { return dir_.path() / name; }

 private:
  ScratchDir dir_;
};

}  // namespace stark::testing

#endif  // STARK_TESTS_SUPPORT_TEMP_DIR_H
