// Running a program with text on its stdin, collecting stdout and stderr
// apart, under a time limit (core/process.h has neither stdin nor a limit).
#ifndef STARK_AGENTS_LLM_SUBPROCESS_H
#define STARK_AGENTS_LLM_SUBPROCESS_H

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "core/expected.h"

namespace stark::llm {

/// What a finished (or killed) program left.
struct SubprocessResult {
  int exit_code = -1;  // 128 + signal number when killed by a signal
  bool timed_out = false;
  bool too_much_output = false;  // stdout or stderr passed the limit; the group was killed
  std::string out;     // stdout
  std::string err;     // stderr
};

/// Runs argv (argv[0] looked up on PATH) in its own process group, writes
/// `input` to its stdin and closes it, and waits at most `timeout`; past it the
/// whole group gets SIGKILL, as it does when stdout or stderr passes
/// max_output bytes. A program that does not read its stdin is fine. An Error
/// only when the program could not be started.
Expected<SubprocessResult> run_with_input(const std::vector<std::string>& argv, const std::string& input,
                                          std::chrono::milliseconds timeout, const std::filesystem::path& cwd = {},
                                          size_t max_output = 16 * 1024 * 1024);

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_SUBPROCESS_H
