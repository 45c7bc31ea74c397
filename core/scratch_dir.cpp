#include "core/scratch_dir.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>

namespace stark {

namespace fs = std::filesystem;

namespace {

fs::path temp_parent() {
  const char* tmp = std::getenv("TMPDIR");
  return tmp && *tmp ? fs::path(tmp) : fs::path("/tmp");
}

/// True when no process has this id (kill(2) with signal 0 says ESRCH).
bool process_gone(pid_t pid) { return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH; }

}  // namespace

int remove_orphaned_scratch(const fs::path& parent, const std::string& what) {
  const std::string prefix = "stark-" + what + "-";
  int removed = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    std::string_view rest = std::string_view(name).substr(prefix.size());
    pid_t pid = 0;
    auto [end, err] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
    if (err != std::errc() || end == rest.data() + rest.size() || *end != '-') continue;
    struct stat st{};
    if (::lstat(entry.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
    if (!process_gone(pid)) continue;
    std::error_code rm;
    if (fs::remove_all(entry.path(), rm) > 0 && !rm) ++removed;
  }
  return removed;
}

Expected<ScratchDir> ScratchDir::create(const std::string& what) {
  const fs::path parent = temp_parent();
  remove_orphaned_scratch(parent, what);
  std::string pattern = (parent / fmt::format("stark-{}-{}-XXXXXX", what, ::getpid())).string();
  if (!::mkdtemp(pattern.data()))
    return Error{fmt::format("cannot create a temporary folder in {} for stark {}", parent.string(), what)};
  return ScratchDir(pattern);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  if (!path_.empty()) fs::remove_all(path_, ec);
}

}  // namespace stark
