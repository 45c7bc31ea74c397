#include "core/process.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

namespace stark {

namespace {

using Clock = std::chrono::steady_clock;

/// This side of the child's standard streams; each is reset once done with.
struct Channels {
  UniqueFd in, out, err;
};

// Makes the channels `options` asks for and starts the child on them. The
// child's ends close here, once it holds its own copies: an end left open in
// this process would keep the child's stdin, or our reads, from ever ending.
Expected<pid_t> start(const std::vector<std::string>& argv, const ProcessOptions& options, Channels& ours) {
  ChildStdio stdio;
  UniqueFd in_child, out_child, err_child;
  if (!options.input.empty()) {
    auto channel = make_stdin_channel();
    if (!channel) return channel.error();
    ours.in = std::move(channel->write);
    in_child = std::move(channel->read);
    stdio.in = in_child.get();
  }
  if (options.output != ProcessOutput::Inherited) {
    auto out = make_pipe();
    if (!out) return out.error();
    ours.out = std::move(out->read);
    out_child = std::move(out->write);
    stdio.out = stdio.err = out_child.get();
  }
  if (options.output == ProcessOutput::Separate) {
    auto err = make_pipe();
    if (!err) return err.error();
    ours.err = std::move(err->read);
    err_child = std::move(err->write);
    stdio.err = err_child.get();
  }
  return spawn_process(argv, options, stdio, options.output != ProcessOutput::Inherited);
}

int poll_wait_ms(std::optional<Clock::time_point> deadline) {
  if (!deadline) return -1;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

// Writes what the child's stdin takes now; closes it (EOF for the child) once
// all is written or the child is gone.
void feed(UniqueFd& in, const std::string& input, size_t& written) {
  ssize_t n = ::send(in.get(), input.data() + written, input.size() - written, MSG_NOSIGNAL | MSG_DONTWAIT);
  if (n > 0) written += static_cast<size_t>(n);
  bool gone = n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
  if (gone || written == input.size()) in.reset();
}

// Reads what one output channel has (poll said it would not block).
void drain(UniqueFd& fd, std::string& sink, const ProcessOptions& options) {
  char buf[65536];
  ssize_t n = ::read(fd.get(), buf, sizeof buf);
  if (n > 0) sink.append(buf, static_cast<size_t>(n));
  else if (n == 0 || errno != EINTR) fd.reset();
  // Trimmed in steps of max_output, not on every read, so a chatty child
  // costs linear time.
  if (options.overflow == OutputOverflow::KeepEnd && sink.size() > 2 * options.max_output)
    sink.erase(0, sink.size() - options.max_output);
}

void keep_end(std::string& text, size_t max) {
  if (text.size() > max) text.erase(0, text.size() - max);
}

// Feeds the input and drains the output until all channels are closed; the
// stop, when the time or output limit comes first.
std::optional<ExitStatus> exchange(Channels& ch, const ProcessOptions& options,
                                   std::optional<Clock::time_point> deadline, ProcessResult& result) {
  size_t written = 0;
  while (ch.in.valid() || ch.out.valid() || ch.err.valid()) {
    int wait_ms = poll_wait_ms(deadline);
    if (wait_ms == 0) return ExitStatus::time_limit();
    // poll passes over the negative descriptors of closed channels.
    pollfd fds[3] = {{ch.in.get(), POLLOUT, 0}, {ch.out.get(), POLLIN, 0}, {ch.err.get(), POLLIN, 0}};
    int n = ::poll(fds, 3, wait_ms);
    if (n < 0 && errno != EINTR) return std::nullopt;
    if (n <= 0) continue;
    if (fds[0].revents) feed(ch.in, options.input, written);
    if (fds[1].revents) drain(ch.out, result.output, options);
    if (fds[2].revents) drain(ch.err, result.err, options);
    bool over = result.output.size() > options.max_output || result.err.size() > options.max_output;
    if (over && options.overflow == OutputOverflow::Stop) return ExitStatus::output_limit();
  }
  return std::nullopt;
}

}  // namespace

Expected<ProcessResult> run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  std::optional<Clock::time_point> deadline;
  if (options.timeout) deadline = Clock::now() + *options.timeout;
  Channels channels;
  auto pid = start(argv, options, channels);
  if (!pid) return pid.error();

  ProcessResult result;
  std::optional<ExitStatus> stop = exchange(channels, options, deadline, result);
  channels = {};
  if (!stop) {
    if (auto ended = wait_process_until(*pid, deadline)) result.status = *ended;
    else stop = ExitStatus::time_limit();
  }
  if (stop) {
    kill_process_group(*pid);
    wait_process(*pid);
    result.status = *stop;
  }
  keep_end(result.output, options.max_output);
  keep_end(result.err, options.max_output);
  return result;
}

}  // namespace stark
