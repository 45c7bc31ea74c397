// The system-call side of starting and ending child processes, shared by
// run_process (process.h) and ChildProcess (child_process.h): every
// descriptor made close-on-exec, so no child inherits another child's pipes
// (children start from several threads at once), and every child reaped.
#ifndef STARK_CORE_SPAWN_H
#define STARK_CORE_SPAWN_H

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/exit_status.h"
#include "core/expected.h"
#include "core/unique_fd.h"

namespace stark {

/// Where a child starts and what it finds in its environment.
struct SpawnOptions {
  std::filesystem::path cwd;               // empty: the current folder
  std::map<std::string, std::string> env;  // added to, or replacing in, this process's environment
};

/// The descriptors a child gets as its standard streams. -1: stdin reads
/// /dev/null; stdout and stderr are this process's own.
struct ChildStdio {
  int in = -1;
  int out = -1;
  int err = -1;
};

/// Starts argv (argv[0] looked up on PATH) with SIGPIPE at its default and
/// no signal blocked. With `own_group` the child leads a new process group,
/// so kill_process_group also ends what it started (cicc, ptxas, a shell's
/// children), and this process passes SIGINT, SIGTERM and SIGHUP on to that
/// group before it ends (child_groups.h); without, it shares ours and Ctrl-C
/// at the terminal reaches it.
/// An Error only when the program could not be started.
Expected<pid_t> spawn_process(const std::vector<std::string>& argv, const SpawnOptions& options, ChildStdio stdio,
                              bool own_group);

/// The two ends of a channel to or from a child.
struct PipeEnds {
  UniqueFd read;
  UniqueFd write;
};
/// A pipe, both ends close-on-exec.
Expected<PipeEnds> make_pipe();
/// A connected socket pair used as a pipe for a child's stdin: writes to it
/// go through send_all, which never raises SIGPIPE in this process when the
/// child exits without reading.
Expected<PipeEnds> make_stdin_channel();
/// Writes all of `data` to a socket (blocking), false once the reader is gone.
bool send_all(int fd, std::string_view data);

/// Waits for `pid` to end and reaps it.
ExitStatus wait_process(pid_t pid);
/// Reaps `pid` if it has ended; nullopt while it runs.
std::optional<ExitStatus> poll_process(pid_t pid);
/// Waits for `pid` up to `deadline` (for ever without one); nullopt when it
/// still runs then.
std::optional<ExitStatus> wait_process_until(pid_t pid, std::optional<std::chrono::steady_clock::time_point> deadline);
/// SIGKILL to the process group `pid` leads, and to `pid` itself.
void kill_process_group(pid_t pid);

}  // namespace stark

#endif  // STARK_CORE_SPAWN_H
