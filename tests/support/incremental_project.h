// A scratch copy of tests/projects/incremental for the incremental-run tests
//: the compile commands a build of it would have, and edits that
// must each change exactly the kernels depending on what they touch.
#ifndef STARK_TESTS_SUPPORT_INCREMENTAL_PROJECT_H
#define STARK_TESTS_SUPPORT_INCREMENTAL_PROJECT_H

#include <filesystem>
#include <string>
#include <vector>

#include "core/manifest.h"

namespace stark::testing {

class IncrementalProject {
 public:
  /// Copies source_dir/tests/projects/incremental to `scratch` (emptied first).
  IncrementalProject(const std::filesystem::path& source_dir, std::filesystem::path scratch, std::string nvcc);

  const std::filesystem::path& root() const { return root_; }

  /// src/ops.cu, src/other.cu and src/arch.cu, compiled with -I include and STARK's include.
  std::vector<CompileCommand> units() const;

  /// Replaces the one occurrence of `from` in the file (a test failure when
  /// it is missing or not unique).
  void edit(const std::string& file, const std::string& from, const std::string& to) const;

  std::vector<std::string> other_flags;  // extra flags of src/other.cu's command

 private:
  std::filesystem::path source_dir_, root_;
  std::string nvcc_;
};

}  // namespace stark::testing

#endif  // STARK_TESTS_SUPPORT_INCREMENTAL_PROJECT_H
