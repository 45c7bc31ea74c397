#include "core/spawn.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "core/child_groups.h"

extern char** environ;

namespace stark {

namespace {

std::vector<std::string> child_environment(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view entry(*e);
    auto eq = entry.find('=');
    if (eq != std::string_view::npos && extra.count(std::string(entry.substr(0, eq)))) continue;
    env.emplace_back(entry);
  }
  for (const auto& [name, value] : extra) env.push_back(name + "=" + value);
  return env;
}

// posix_spawn's argv and envp: pointers into strings that outlive the call.
std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

/// The spawn's two descriptions, destroyed on every way out.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

void describe_spawn(SpawnSetup& s, const SpawnOptions& options, ChildStdio stdio, bool own_group) {
  if (stdio.in >= 0) posix_spawn_file_actions_adddup2(&s.actions, stdio.in, STDIN_FILENO);
  else posix_spawn_file_actions_addopen(&s.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (stdio.out >= 0) posix_spawn_file_actions_adddup2(&s.actions, stdio.out, STDOUT_FILENO);
  if (stdio.err >= 0) posix_spawn_file_actions_adddup2(&s.actions, stdio.err, STDERR_FILENO);
  if (!options.cwd.empty()) posix_spawn_file_actions_addchdir_np(&s.actions, options.cwd.c_str());

  // This process ignores SIGPIPE and may block signals in the thread that
  // spawns; a compiler or a shell expects neither.
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&s.attr, &none);
  posix_spawnattr_setsigdefault(&s.attr, &defaults);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (own_group) {
    posix_spawnattr_setpgroup(&s.attr, 0);
    flags |= POSIX_SPAWN_SETPGROUP;
  }
  posix_spawnattr_setflags(&s.attr, flags);
}

Error os_error(const char* what) { return Error{fmt::format("cannot create {}: {}", what, std::strerror(errno))}; }

// waitpid without EINTR; a child already reaped elsewhere (SIGCHLD ignored)
// counts as ended with an unknown code, so no caller waits for it for ever.
std::optional<ExitStatus> reap(pid_t pid, int flags) {
  int status = 0;
  pid_t r;
  do {
    r = ::waitpid(pid, &status, flags);
  } while (r < 0 && errno == EINTR);
  if (r == pid) {
    forget_child_group(pid);
    return ExitStatus::from_wait_status(status);
  }
  if (r < 0) {
    forget_child_group(pid);
    return ExitStatus::exited(-1);
  }
  return std::nullopt;
}

}  // namespace

Expected<pid_t> spawn_process(const std::vector<std::string>& argv, const SpawnOptions& options, ChildStdio stdio,
                              bool own_group) {
  if (argv.empty()) return Error{"cannot run an empty command"};
  SpawnSetup setup;
  describe_spawn(setup, options, stdio, own_group);
  std::vector<std::string> args = argv;
  std::vector<std::string> env = child_environment(options.env);
  auto argp = c_strings(args);
  auto envp = c_strings(env);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, argp[0], &setup.actions, &setup.attr, argp.data(), envp.data());
  if (rc != 0) return Error{fmt::format("cannot run '{}': {}", argv[0], std::strerror(rc))};
  if (own_group) track_child_group(pid);
  return pid;
}

Expected<PipeEnds> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return os_error("a pipe");
  return PipeEnds{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

Expected<PipeEnds> make_stdin_channel() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return os_error("a socket pair");
  return PipeEnds{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

bool send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

ExitStatus wait_process(pid_t pid) { return *reap(pid, 0); }

std::optional<ExitStatus> poll_process(pid_t pid) { return reap(pid, WNOHANG); }

std::optional<ExitStatus> wait_process_until(pid_t pid, std::optional<std::chrono::steady_clock::time_point> deadline) {
  if (!deadline) return wait_process(pid);
  for (;;) {
    if (auto status = poll_process(pid)) return status;
    if (std::chrono::steady_clock::now() >= *deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void kill_process_group(pid_t pid) {
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
}

}  // namespace stark
