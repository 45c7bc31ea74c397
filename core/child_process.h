// A child STARK talks to while it runs: the GPU worker (JSON lines both
// ways), and the worker under compute-sanitizer or ncu. process.h runs the
// children it only waits for.
#ifndef STARK_CORE_CHILD_PROCESS_H
#define STARK_CORE_CHILD_PROCESS_H

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/exit_status.h"
#include "core/expected.h"
#include "core/spawn.h"
#include "core/unique_fd.h"

namespace stark {

/// A long-lived child with its stdin and stdout connected to us; the end of
/// its stderr is kept for error messages. It leads its own process group,
/// so kill() also ends what it started. One owner at a time: not thread-safe.
class ChildProcess {
 public:
  /// Starts argv (argv[0] looked up on PATH). An Error only when it cannot start.
  static Expected<std::unique_ptr<ChildProcess>> start(const std::vector<std::string>& argv,
                                                       const SpawnOptions& options = {});
  /// Kills the child if it still runs.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  /// Writes one line (a newline is added). False once the child's stdin is closed.
  bool write_line(const std::string& line);
  /// Writes bytes as they are (a blob after a "put" line). False as above.
  bool write_raw(std::string_view bytes);

  enum class ReadStatus { Line, Eof, Timeout };
  /// Reads one line of stdout into `line`, without its newline. A last line
  /// without a newline is dropped: the worker ends every reply with one.
  ReadStatus read_line(std::string& line, std::chrono::milliseconds timeout);

  /// Sends SIGKILL to the child's process group and reaps the child.
  ExitStatus kill();
  /// Closes the child's stdin and waits up to `timeout` for it to exit; past
  /// that it is killed and its status is ExitStatus::Kind::TimedOut.
  ExitStatus finish(std::chrono::milliseconds timeout);
  /// True until the child has exited.
  bool running();

  pid_t pid() const { return pid_; }
  /// The end of what the child wrote on stderr so far.
  std::string stderr_tail();

 private:
  ChildProcess() = default;
  /// Reaps the child if it ends by `deadline` (nullopt: however long it takes).
  void reap(std::optional<std::chrono::steady_clock::time_point> deadline);
  void collect_stderr(UniqueFd err);

  pid_t pid_ = -1;
  UniqueFd in_;
  UniqueFd out_;
  std::string out_buf_;
  std::thread err_thread_;
  std::mutex err_mutex_;
  std::string err_tail_;
  std::optional<ExitStatus> exited_;
};

}  // namespace stark

#endif  // STARK_CORE_CHILD_PROCESS_H
