// One writer per output folder: two `stark optimize` runs into the same
// folder would both spend the budget and the last one would win.
#ifndef STARK_CORE_FOLDER_LOCK_H
#define STARK_CORE_FOLDER_LOCK_H

#include <filesystem>
#include <string>

#include "core/expected.h"

namespace stark {

/// An exclusive lock on a folder STARK writes, held through flock(2) on its
/// `.stark-lock` file: the kernel drops it when the process ends, however it
/// ends, so a crashed run never leaves the folder locked.
class FolderLock {
 public:
  /// Takes the lock without waiting (creating the folder); when another
  /// process holds it, an error naming that process and what it runs.
  /// `holder` says what this process is ("stark optimize").
  static Expected<FolderLock> acquire(const std::filesystem::path& folder, const std::string& holder);

  FolderLock(FolderLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FolderLock& operator=(FolderLock&& other) noexcept;
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  ~FolderLock();

 private:
  explicit FolderLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace stark

#endif  // STARK_CORE_FOLDER_LOCK_H
