// Temporary folders of one stark process. A run that is killed cannot
// remove its own, so each name carries its process id and every new one
// first removes those whose process is gone.
#ifndef STARK_CORE_SCRATCH_DIR_H
#define STARK_CORE_SCRATCH_DIR_H

#include <filesystem>
#include <string>

#include "core/expected.h"

namespace stark {

/// A folder `<tmp>/stark-<what>-<pid>-XXXXXX`, removed with its content on
/// destruction.
class ScratchDir {
 public:
  /// Creates one under $TMPDIR (else /tmp); `what` names the stage ("apply").
  /// Folders of the same pattern left by processes that no longer exist are
  /// removed first.
  static Expected<ScratchDir> create(const std::string& what);

  ScratchDir(ScratchDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  ScratchDir& operator=(ScratchDir&&) = delete;
  ScratchDir(const ScratchDir&) = delete;
  ~ScratchDir();

  const std::filesystem::path& path() const { return path_; }

 private:
  explicit ScratchDir(std::filesystem::path path) : path_(std::move(path)) {}
  std::filesystem::path path_;
};

/// Removes `<parent>/stark-<what>-<pid>-*` folders whose process is gone;
/// returns how many. Links and folders of other users are left alone.
int remove_orphaned_scratch(const std::filesystem::path& parent, const std::string& what);

}  // namespace stark

#endif  // STARK_CORE_SCRATCH_DIR_H
