// How a child process ended, in the one form every caller reads: an exit
// code only when the program exited by itself, the signal apart from it,
// and STARK's own stops (a time limit, an output limit) named as such rather
// than as the SIGKILL that carried them out, so messages can say which.
#ifndef STARK_CORE_EXIT_STATUS_H
#define STARK_CORE_EXIT_STATUS_H

#include <string>

namespace stark {

/// The end of a child process: exited with a code, killed by a signal, or
/// stopped by STARK at its time or output limit.
struct ExitStatus {
  enum class Kind { Exited, Signaled, TimedOut, OutputLimit };
  Kind kind = Kind::Exited;
  int code = -1;   // Kind::Exited: the exit code; -1 otherwise
  int signal = 0;  // Kind::Signaled: the signal; 0 otherwise

  static ExitStatus exited(int code) { return {Kind::Exited, code, 0}; }
  static ExitStatus killed_by(int signal) { return {Kind::Signaled, -1, signal}; }
  static ExitStatus time_limit() { return {Kind::TimedOut, -1, 0}; }
  static ExitStatus output_limit() { return {Kind::OutputLimit, -1, 0}; }
  /// From the status word waitpid(2) fills.
  static ExitStatus from_wait_status(int status);

  bool success() const { return kind == Kind::Exited && code == 0; }
  bool timed_out() const { return kind == Kind::TimedOut; }
  /// For messages: "exit code 2", "killed by signal 11 (Segmentation
  /// fault)", "stopped at its time limit", "stopped at its output limit".
  std::string describe() const;
};

}  // namespace stark

#endif  // STARK_CORE_EXIT_STATUS_H
