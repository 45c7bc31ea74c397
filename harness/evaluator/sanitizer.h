// The compute-sanitizer gate for a final candidate: the worker runs the
// variant once under memcheck (out-of-bounds and misaligned accesses) and
// under racecheck (shared-memory races). Where the tool is missing or cannot
// run on the machine, the check says so (ok = null), never passes silently.
#ifndef STARK_HARNESS_EVALUATOR_SANITIZER_H
#define STARK_HARNESS_EVALUATOR_SANITIZER_H

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/evaluation.h"

namespace stark::harness {

/// The compute-sanitizer to use: `configured` when set, else from PATH or
/// the CUDA toolkit; empty when none is found.
std::string find_compute_sanitizer(const std::string& configured);

/// The options `tool` runs with besides the log and exit-code plumbing. For
/// memcheck: a padding allocation after every allocation, so a read just past
/// a buffer's end never lands in a neighbouring live allocation (the buffer's
/// own pristine copy, the next parameter), where memcheck would see a valid
/// address. Part of the memo key: a pass seen under other options is no pass.
std::vector<std::string> sanitizer_tool_options(CheckName tool);

/// Runs `worker_argv` under `compute-sanitizer --tool <tool>` on a run_once
/// request; `tool` is CheckName::Memcheck or CheckName::Racecheck, the
/// check and the tool share the name.
Check run_sanitizer(CheckName tool, const std::string& compute_sanitizer, const std::vector<std::string>& worker_argv,
                    const nlohmann::json& run_once_request, std::chrono::seconds timeout,
                    const std::filesystem::path& tmp_dir, const std::map<std::string, std::string>& env = {});

/// The error lines of a compute-sanitizer log worth showing (at most `n`).
std::string sanitizer_findings(const std::string& log, size_t n = 4);

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_SANITIZER_H
