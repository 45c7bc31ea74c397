#include "agents/llm/subprocess.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace stark::llm {

namespace {

// Closes a descriptor once, however the function is left.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

Expected<SubprocessResult> run_with_input(const std::vector<std::string>& argv, const std::string& input,
                                          std::chrono::milliseconds timeout, const std::filesystem::path& cwd,
                                          size_t max_output) {
  if (argv.empty()) return Error{"run_with_input: empty command"};
  // stdin is a socket so our writes can use MSG_NOSIGNAL: a program that exits
  // without reading its input must not kill us with SIGPIPE.
  int in_pair[2], out_pipe[2], err_pipe[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in_pair) != 0)
    return Error{fmt::format("cannot create a socket pair: {}", std::strerror(errno))};
  Fd in_parent(in_pair[0]), in_child(in_pair[1]);
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return Error{fmt::format("cannot create a pipe: {}", std::strerror(errno))};
  Fd out_parent(out_pipe[0]), out_child(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) return Error{fmt::format("cannot create a pipe: {}", std::strerror(errno))};
  Fd err_parent(err_pipe[0]), err_child(err_pipe[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_child.get(), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_child.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_child.get(), STDERR_FILENO);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group, so a timeout kills what it started too
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  in_child.reset();
  out_child.reset();
  err_child.reset();
  if (rc != 0) return Error{fmt::format("cannot run '{}': {}", argv[0], std::strerror(rc))};

  set_nonblocking(in_parent.get());
  set_nonblocking(out_parent.get());
  set_nonblocking(err_parent.get());
  SubprocessResult result;
  size_t written = 0;
  if (input.empty()) in_parent.reset();
  auto deadline = std::chrono::steady_clock::now() + timeout;
  char buf[8192];
  while (out_parent.get() >= 0 || err_parent.get() >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    pollfd fds[3] = {{in_parent.get(), POLLOUT, 0}, {out_parent.get(), POLLIN, 0}, {err_parent.get(), POLLIN, 0}};
    int n = ::poll(fds, 3, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    if (in_parent.get() >= 0 && (fds[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = ::send(in_parent.get(), input.data() + written, input.size() - written, MSG_NOSIGNAL);
      if (w > 0) written += static_cast<size_t>(w);
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == input.size()) in_parent.reset();  // EOF for the program
    }
    for (int i : {1, 2}) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Fd& fd = i == 1 ? out_parent : err_parent;
      ssize_t r = ::read(fd.get(), buf, sizeof buf);
      std::string& sink = i == 1 ? result.out : result.err;
      if (r > 0) sink.append(buf, static_cast<size_t>(r));
      else if (r == 0 || (errno != EAGAIN && errno != EINTR)) fd.reset();
      if (sink.size() > max_output) result.too_much_output = true;
    }
    if (result.too_much_output) {
      ::kill(-pid, SIGKILL);
      break;
    }
  }
  in_parent.reset();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
  return result;
}

}  // namespace stark::llm
