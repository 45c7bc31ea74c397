#include "core/child_process.h"

#include <poll.h>

#include <cerrno>

namespace stark {

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kStderrTail = 16384;

int ms_until(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

}  // namespace

Expected<std::unique_ptr<ChildProcess>> ChildProcess::start(const std::vector<std::string>& argv,
                                                            const SpawnOptions& options) {
  auto in = make_stdin_channel();
  if (!in) return in.error();
  auto out = make_pipe();
  if (!out) return out.error();
  auto err = make_pipe();
  if (!err) return err.error();
  auto pid = spawn_process(argv, options, {in->read.get(), out->write.get(), err->write.get()}, /*own_group=*/true);
  if (!pid) return pid.error();
  std::unique_ptr<ChildProcess> child(new ChildProcess);
  child->pid_ = *pid;
  child->in_ = std::move(in->write);
  child->out_ = std::move(out->read);
  // Read on its own thread: a child blocked on a full stderr pipe would
  // never answer on stdout.
  child->err_thread_ = std::thread(&ChildProcess::collect_stderr, child.get(), std::move(err->read));
  return child;
}

void ChildProcess::collect_stderr(UniqueFd err) {
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(err.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    std::lock_guard lock(err_mutex_);
    err_tail_.append(buf, static_cast<size_t>(n));
    if (err_tail_.size() > 2 * kStderrTail) err_tail_.erase(0, err_tail_.size() - kStderrTail);
  }
}

ChildProcess::~ChildProcess() {
  if (!exited_) kill();
  if (err_thread_.joinable()) err_thread_.join();
}

bool ChildProcess::write_line(const std::string& line) { return write_raw(line + "\n"); }

bool ChildProcess::write_raw(std::string_view bytes) { return in_.valid() && send_all(in_.get(), bytes); }

ChildProcess::ReadStatus ChildProcess::read_line(std::string& line, std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  for (;;) {
    auto nl = out_buf_.find('\n');
    if (nl != std::string::npos) {
      line = out_buf_.substr(0, nl);
      out_buf_.erase(0, nl + 1);
      return ReadStatus::Line;
    }
    if (!out_.valid()) return ReadStatus::Eof;
    pollfd p{out_.get(), POLLIN, 0};
    int n = ::poll(&p, 1, ms_until(deadline));
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) return ReadStatus::Timeout;
    char buf[65536];
    ssize_t got = ::read(out_.get(), buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) out_.reset();
    else out_buf_.append(buf, static_cast<size_t>(got));
  }
}

void ChildProcess::reap(std::optional<std::chrono::steady_clock::time_point> deadline) {
  if (exited_) return;
  exited_ = wait_process_until(pid_, deadline);
  // Whatever the child started and left behind in its group goes with it.
  if (exited_) kill_process_group(pid_);
}

bool ChildProcess::running() {
  reap(Clock::now());
  return !exited_;
}

ExitStatus ChildProcess::kill() {
  if (!exited_) {
    kill_process_group(pid_);
    reap(std::nullopt);
  }
  if (err_thread_.joinable()) err_thread_.join();
  return *exited_;
}

ExitStatus ChildProcess::finish(std::chrono::milliseconds timeout) {
  in_.reset();
  reap(Clock::now() + timeout);
  if (!exited_) {
    kill();
    exited_ = ExitStatus::time_limit();
  }
  if (err_thread_.joinable()) err_thread_.join();
  return *exited_;
}

std::string ChildProcess::stderr_tail() {
  std::lock_guard lock(err_mutex_);
  return err_tail_.size() > kStderrTail ? err_tail_.substr(err_tail_.size() - kStderrTail) : err_tail_;
}

}  // namespace stark
