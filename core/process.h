// Running a program to its end and collecting what it printed: compilers,
// cmake, git, the user's test command, the LLM command backend. The one way
// STARK runs a child it does not talk to while it runs (child_process.h is
// for those it does).
#ifndef STARK_CORE_PROCESS_H
#define STARK_CORE_PROCESS_H

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/exit_status.h"
#include "core/expected.h"
#include "core/spawn.h"

namespace stark {

/// Where the child's stdout and stderr go.
enum class ProcessOutput {
  Merged,     // both into ProcessResult::output, interleaved as printed
  Separate,   // stdout into ProcessResult::output, stderr into ProcessResult::err
  Inherited,  // this process's own; the child stays in our process group, so Ctrl-C reaches it
};

/// What happens once the child has printed more than max_output bytes on a stream.
enum class OutputOverflow {
  KeepEnd,  // it runs on; the last max_output bytes are kept (a compiler's last errors)
  Stop,     // its process group is killed and its status is ExitStatus::Kind::OutputLimit
};

/// How run_process runs a program: SpawnOptions' folder and environment, and
/// what it is given, how long it may take and what of its output is kept.
struct ProcessOptions : SpawnOptions {
  std::string input;  // written to its stdin, which is then closed; empty: stdin reads /dev/null
  std::optional<std::chrono::milliseconds> timeout;  // past it the child's process group is killed
  ProcessOutput output = ProcessOutput::Merged;
  size_t max_output = 16u << 20;  // per stream
  OutputOverflow overflow = OutputOverflow::KeepEnd;

  /// The defaults, run in `cwd`.
  static ProcessOptions in(std::filesystem::path cwd) {
    ProcessOptions o;
    o.cwd = std::move(cwd);
    return o;
  }
};

/// How a program ended and what it printed.
struct ProcessResult {
  ExitStatus status;
  std::string output;  // stdout, and stderr unless ProcessOutput::Separate
  std::string err;     // stderr with ProcessOutput::Separate
};

/// Runs argv (argv[0] looked up on PATH) to its end, its time limit or its
/// output limit, and reaps it. The child leads its own process group (but
/// with ProcessOutput::Inherited), so a limit also ends what it started. A
/// program that does not read its input is fine. An Error only when the
/// program could not be started.
Expected<ProcessResult> run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

}  // namespace stark

#endif  // STARK_CORE_PROCESS_H
