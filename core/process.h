// Running a child program and collecting what it printed.
#ifndef STARK_CORE_PROCESS_H
#define STARK_CORE_PROCESS_H

#include <filesystem>
#include <string>
#include <vector>

#include "core/expected.h"

namespace stark {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal number when killed by a signal
  std::string output;  // stdout and stderr, interleaved as printed
};

/// Runs argv (argv[0] looked up on PATH) in cwd (empty = current) and waits.
/// An Error only when the program could not be started at all.
Expected<ProcessResult> run_process(const std::vector<std::string>& argv,
                                    const std::filesystem::path& cwd = {});

}  // namespace stark

#endif  // STARK_CORE_PROCESS_H
