#include "core/folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <ctime>

namespace stark {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockName = ".stark-lock";

/// What the holder wrote: "pid <n> <holder> since <time>". Read through the
/// descriptor already open, at most a line.
std::string holder_of(int fd) {
  char text[256] = {};
  ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
  std::string line(text, n > 0 ? static_cast<size_t>(n) : 0);
  line = line.substr(0, line.find('\n'));
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';  // another user may have written it
  return line;
}

}  // namespace

Expected<FolderLock> FolderLock::acquire(const fs::path& folder, const std::string& holder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return Error{fmt::format("cannot create '{}': {}", folder.string(), ec.message())};
  const fs::path file = folder / kLockName;
  int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return Error{fmt::format("cannot open '{}': {}", file.string(), std::strerror(errno))};
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    std::string who = err == EWOULDBLOCK ? holder_of(fd) : "";
    ::close(fd);
    if (err != EWOULDBLOCK) return Error{fmt::format("cannot lock '{}': {}", file.string(), std::strerror(err))};
    return Error{fmt::format("'{}' is in use by another run ({}); wait for it to end or write to another folder",
                             folder.string(), who.empty() ? "it has not said which" : who)};
  }
  std::time_t now = std::time(nullptr);
  char when[32] = {};
  std::strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  std::string line = fmt::format("pid {}: {} since {}\n", ::getpid(), holder, when);
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, line.data(), line.size(), 0) < 0) {
    // The lock holds without the note; only the message to a second run is poorer.
  }
  return FolderLock(fd);
}

FolderLock& FolderLock::operator=(FolderLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace stark
