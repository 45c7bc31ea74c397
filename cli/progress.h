// The progress display of `stark optimize`, in the style of Ninja: on a
// terminal one status line rewritten in place,
//   [42/120] saxpy (1/4) best 1.84x | #12 plan+code accepted 241 us: four float4 per thread
// and a permanent line per finished kernel; when output is not a terminal
// (CI logs, pipes) the same status as plain lines, one per attempt.
//
// The optimize command creates one ProgressDisplay and calls it from its
// search loop: begin_run, then per kernel begin_kernel, attempt (once per
// evaluated candidate), end_kernel; message() for warnings in between.
#ifndef STARK_CLI_PROGRESS_H
#define STARK_CLI_PROGRESS_H

#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "agents/search_tree.h"
#include "core/result.h"

namespace stark::cli {

enum class Verbosity {
  Quiet,    // only message() lines
  Normal,   // status line (terminal) or one line per attempt, and one line per kernel
  Verbose,  // also a permanent line per attempt with its first diagnostic line
};

/// How to print: detect() reads it from the real stream and environment;
/// tests construct it directly.
struct ProgressStyle {
  bool terminal = false;  // rewrite one status line in place
  bool color = false;     // ANSI colours
  int width = 80;         // columns the status line may use
  Verbosity verbosity = Verbosity::Normal;

  /// terminal = isatty(fd) and TERM is not "dumb"; color = terminal and
  /// NO_COLOR unset or empty; width from the terminal (TIOCGWINSZ), else
  /// $COLUMNS, else 80.
  static ProgressStyle detect(int fd, Verbosity verbosity);
};

/// Prints the progress of one optimize run. Thread-safe: every call takes a lock.
class ProgressDisplay {
 public:
  ProgressDisplay(std::ostream& out, ProgressStyle style);
  ~ProgressDisplay();  // clears an unfinished status line
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

  /// `total_attempts` is the sum of the kernels' budgets: the N of [n/N].
  void begin_run(int kernels, int total_attempts);
  /// `budget`: attempts planned for this kernel; `baseline_us` once measured.
  void begin_kernel(const std::string& id, int budget, std::optional<double> baseline_us);
  /// A better baseline figure arrived after begin_kernel (measured lazily).
  void set_baseline(double baseline_us);
  void attempt(const SearchNode& node);
  /// Prints the kernel's outcome; unused budget leaves the run's total.
  void end_kernel(const KernelResult& k);
  /// A line that stays (warnings, notes): printed above the status line.
  void message(std::string_view line);
  /// Clears the status line and prints "3 of 6 kernels faster ..." (not in quiet mode).
  void end_run(const Result& r);

 private:
  void show_status(std::string status);    // terminal: rewrite; otherwise: a line
  void print_line(std::string_view line);  // a permanent line, under or instead of the status
  std::string status_text(const SearchNode* last) const;
  std::string paint(std::string_view code, std::string_view text) const;

  std::ostream& out_;
  ProgressStyle style_;
  std::mutex mutex_;
  bool status_shown_ = false;  // a status line is on screen (terminal only)
  int kernels_ = 0, kernel_index_ = 0;
  int total_ = 0, done_ = 0;
  std::string name_;  // short name of the current kernel
  int budget_ = 0, kernel_done_ = 0;
  std::optional<double> baseline_us_, best_us_;
};

/// "1.84x", "224 us", "8.63 ms": ASCII, for every terminal and log.
std::string progress_time(double us);

}  // namespace stark::cli

#endif  // STARK_CLI_PROGRESS_H
