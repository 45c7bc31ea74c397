#include "harness/common/subprocess.h"

#include <vector>
#include <thread>
#include <string>
#include <optional>
#include <mutex>
#include <memory>
#include <map>
#include <chrono>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace stark::harness {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> make_env(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq != std::string_view::npos && extra.count(std::string(kv.substr(0, eq)))) continue;
    env.emplace_back(kv);
  }
  for (const auto& [k, v] : extra) env.push_back(k + "=" + v);
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (auto& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

struct Spawned {
  pid_t pid = -1;
};

// posix_spawnp in a new process group with the given fd mapping.
Expected<pid_t> spawn(const std::vector<std::string>& argv, const CommandOptions& options, int in_fd, int out_fd,
                      int err_fd, const std::vector<int>& close_in_child, bool new_group = true) {
  if (argv.empty()) return Error{"internal: empty command"};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (in_fd >= 0) posix_spawn_file_actions_adddup2(&actions, in_fd, STDIN_FILENO);
  else posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  if (out_fd >= 0) posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  if (err_fd >= 0) posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  for (int fd : close_in_child) posix_spawn_file_actions_addclose(&actions, fd);
  if (!options.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, options.cwd.c_str());

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  if (new_group) {
    posix_spawnattr_setpgroup(&attr, 0);
    flags |= POSIX_SPAWN_SETPGROUP;
  }
  posix_spawnattr_setflags(&attr, flags);

  std::vector<std::string> args = argv;
  auto argp = c_strings(args);
  auto env = make_env(options.env);
  auto envp = c_strings(env);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, argp[0], &actions, &attr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return Error{fmt::format("cannot run '{}': {}", argv[0], std::strerror(rc))};
  return pid;
}

ExitStatus decode(int status) {
  ExitStatus s;
  if (WIFEXITED(status)) s.code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) s.signal = WTERMSIG(status);
  return s;
}

ExitStatus wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return decode(status);
}

int remaining_ms(std::optional<Clock::time_point> deadline) {
  if (!deadline) return -1;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

}  // namespace

std::string ExitStatus::describe() const {
  if (timed_out) return "stopped at its time limit";
  if (signal) return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit code {}", code);
}

Expected<CommandResult> run_command(const std::vector<std::string>& argv, const CommandOptions& options) {
  if (!options.capture_output) {
    // Same process group as ours: Ctrl-C at the terminal reaches the command too.
    auto pid = spawn(argv, options, -1, -1, -1, {}, /*new_group=*/false);
    if (!pid) return pid.error();
    std::optional<Clock::time_point> deadline;
    if (options.timeout) deadline = Clock::now() + *options.timeout;
    CommandResult result;
    for (;;) {
      int status = 0;
      pid_t r = waitpid(*pid, &status, deadline ? WNOHANG : 0);
      if (r < 0 && errno == EINTR) continue;
      if (r == *pid) {
        result.status = decode(status);
        return result;
      }
      if (deadline && Clock::now() >= *deadline) {
        ::kill(*pid, SIGKILL);
        result.status = wait_for(*pid);
        result.status.timed_out = true;
        return result;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return Error{fmt::format("cannot create a pipe: {}", std::strerror(errno))};
  auto pid = spawn(argv, options, -1, fds[1], fds[1], {});
  close(fds[1]);
  if (!pid) {
    close(fds[0]);
    return pid.error();
  }
  std::optional<Clock::time_point> deadline;
  if (options.timeout) deadline = Clock::now() + *options.timeout;

  CommandResult result;
  char buf[65536];
  bool timed_out = false;
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    int n = poll(&p, 1, remaining_ms(deadline));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) {
      timed_out = true;
      break;
    }
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    result.output.append(buf, static_cast<size_t>(got));
    if (result.output.size() > options.max_output * 2)
      result.output.erase(0, result.output.size() - options.max_output);
  }
  close(fds[0]);
  if (timed_out) ::kill(-*pid, SIGKILL);
  result.status = wait_for(*pid);
  result.status.timed_out = timed_out;
  if (result.output.size() > options.max_output) result.output.erase(0, result.output.size() - options.max_output);
  return result;
}

// ---------------------------------------------------------------- Child

Expected<std::unique_ptr<Child>> Child::start(const std::vector<std::string>& argv, const CommandOptions& options) {
  int in[2], out[2], err[2];
  // stdin is a socket so writes to a dead child fail with EPIPE instead of SIGPIPE.
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0)
    return Error{fmt::format("cannot create a socket pair: {}", std::strerror(errno))};
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
    return Error{fmt::format("cannot create a pipe: {}", std::strerror(errno))};
  auto pid = spawn(argv, options, in[1], out[1], err[1], {});
  close(in[1]);
  close(out[1]);
  close(err[1]);
  if (!pid) {
    close(in[0]);
    close(out[0]);
    close(err[0]);
    return pid.error();
  }
  auto child = std::make_unique<Child>();
  child->pid_ = *pid;
  child->in_fd_ = in[0];
  child->out_fd_ = out[0];
  int err_fd = err[0];
  Child* self = child.get();
  child->err_thread_ = std::thread([self, err_fd] {
    char buf[4096];
    for (;;) {
      ssize_t n = read(err_fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      std::lock_guard lock(self->err_mutex_);
      self->err_tail_.append(buf, static_cast<size_t>(n));
      if (self->err_tail_.size() > 32768) self->err_tail_.erase(0, self->err_tail_.size() - 16384);
    }
    close(err_fd);
  });
  return child;
}

Child::~Child() {
  if (pid_ > 0 && !exited_) kill();
  if (in_fd_ >= 0) close(in_fd_);
  if (out_fd_ >= 0) close(out_fd_);
  if (err_thread_.joinable()) err_thread_.join();
}

bool Child::write_line(const std::string& line) { return write_raw(line + "\n"); }

bool Child::write_raw(std::string_view data) {
  if (in_fd_ < 0) return false;
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = send(in_fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

Child::ReadStatus Child::read_line(std::string& line, std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  for (;;) {
    auto nl = out_buf_.find('\n');
    if (nl != std::string::npos) {
      line = out_buf_.substr(0, nl);
      out_buf_.erase(0, nl + 1);
      return ReadStatus::Line;
    }
    if (out_fd_ < 0) return ReadStatus::Eof;
    pollfd p{out_fd_, POLLIN, 0};
    int n = poll(&p, 1, remaining_ms(deadline));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) return ReadStatus::Timeout;
    char buf[65536];
    ssize_t got = read(out_fd_, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      close(out_fd_);
      out_fd_ = -1;
      continue;  // a last unterminated line is dropped: replies always end with a newline
    }
    out_buf_.append(buf, static_cast<size_t>(got));
  }
}

ExitStatus Child::reap(bool block) {
  if (exited_) return *exited_;
  int status = 0;
  pid_t r;
  do {
    r = waitpid(pid_, &status, block ? 0 : WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == pid_) {
    exited_ = decode(status);
    ::kill(-pid_, SIGKILL);  // whatever the child left in its group
    return *exited_;
  }
  return {};
}

bool Child::running() {
  if (exited_) return false;
  reap(false);
  return !exited_;
}

ExitStatus Child::kill() {
  if (!exited_ && pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    reap(true);
  }
  if (err_thread_.joinable()) err_thread_.join();
  return exited_.value_or(ExitStatus{});
}

ExitStatus Child::finish(std::chrono::milliseconds timeout) {
  if (in_fd_ >= 0) {
    close(in_fd_);
    in_fd_ = -1;
  }
  auto deadline = Clock::now() + timeout;
  while (!exited_ && Clock::now() < deadline) {
    reap(false);
    if (!exited_) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!exited_) {
    auto s = kill();
    s.timed_out = true;
    exited_ = s;
  }
  if (err_thread_.joinable()) err_thread_.join();
  return *exited_;
}

std::string Child::stderr_tail() {
  std::lock_guard lock(err_mutex_);
  return err_tail_.size() > 16384 ? err_tail_.substr(err_tail_.size() - 16384) : err_tail_;
}

}  // namespace stark::harness
