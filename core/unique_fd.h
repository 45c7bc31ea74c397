// File descriptors with one owner, so that no way out of a function (an
// early return, an error) leaves a pipe open: a pipe end left open in the
// parent keeps a child's reader from ever seeing the end of its input.
#ifndef STARK_CORE_UNIQUE_FD_H
#define STARK_CORE_UNIQUE_FD_H

#include <unistd.h>

namespace stark {

/// Owns one file descriptor and closes it exactly once: on reset, or when
/// the owner goes away. Moves, never copies.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  /// Gives the descriptor up without closing it.
  int release() noexcept {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  /// Closes the descriptor held, if any, and holds `fd` instead.
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace stark

#endif  // STARK_CORE_UNIQUE_FD_H
