// Child processes for the harness: one-shot commands with a time limit
// (nvcc, compute-sanitizer) and long-lived children spoken to in JSON lines
// (the GPU worker). Each child runs in its own process group so a time limit
// also ends what it started (cicc, ptxas...).
#ifndef STARK_HARNESS_COMMON_SUBPROCESS_H
#define STARK_HARNESS_COMMON_SUBPROCESS_H

#include <cstdio>
#include <memory>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/expected.h"

namespace stark::harness {

/// How a child ended.
struct ExitStatus {
  int code = -1;        // exit code, or -1 when killed by a signal
  int signal = 0;       // the signal that ended it, 0 when it exited
  bool timed_out = false;  // ended by us at its time limit

  bool success() const { return code == 0 && !timed_out; }
  /// "exit code 2", "killed by signal 11 (Segmentation fault)", "timed out after 30 s".
  std::string describe() const;
};

struct CommandOptions {
  std::filesystem::path cwd;                  // empty: current folder
  std::map<std::string, std::string> env;     // added to (or replacing in) this process's environment
  std::optional<std::chrono::milliseconds> timeout;
  size_t max_output = 8 << 20;                // keep at most this many bytes (the end is kept)
  bool capture_output = true;                 // false: the child writes to our stdout/stderr
};

struct CommandResult {
  ExitStatus status;
  std::string output;  // stdout and stderr interleaved
};

/// Runs argv (argv[0] looked up on PATH) to completion or its time limit.
/// An Error only when the program could not be started.
Expected<CommandResult> run_command(const std::vector<std::string>& argv, const CommandOptions& options = {});

/// A long-lived child with pipes on stdin and stdout; its stderr is kept
/// (the last 16 KiB) for error messages. Not thread-safe: one owner at a time.
class Child {
 public:
  Child() = default;
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  static Expected<std::unique_ptr<Child>> start(const std::vector<std::string>& argv, const CommandOptions& options = {});

  /// Writes one line (a newline is added). False when the child closed its stdin.
  bool write_line(const std::string& line);
  /// Writes bytes as they are (a blob after a "put" line). False as above.
  bool write_raw(std::string_view bytes);

  enum class ReadStatus { Line, Eof, Timeout };
  /// Reads one line of stdout into `line` (without the newline).
  ReadStatus read_line(std::string& line, std::chrono::milliseconds timeout);

  /// Sends SIGKILL to the child's process group and reaps it.
  ExitStatus kill();
  /// Waits for the child to exit (after closing its stdin) up to `timeout`, then kills it.
  ExitStatus finish(std::chrono::milliseconds timeout);
  /// True while the child has not been reaped and has not exited.
  bool running();

  pid_t pid() const { return pid_; }
  /// The end of what the child wrote on stderr so far.
  std::string stderr_tail();

 private:
  ExitStatus reap(bool block);

  pid_t pid_ = -1;
  int in_fd_ = -1;
  int out_fd_ = -1;
  std::string out_buf_;
  std::thread err_thread_;
  std::mutex err_mutex_;
  std::string err_tail_;
  std::optional<ExitStatus> exited_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMMON_SUBPROCESS_H
