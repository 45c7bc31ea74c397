// The guards a verdict rests on (docs/design.md, "What a speedup must
// survive"), as a closed set: a result's checks name only these, and a
// check with any other name in a worker's reply or a result file is an
// error, never a check of its own. The GPU worker runs the first group; the
// evaluator adds its own around them.
#ifndef STARK_CORE_CHECK_NAMES_H
#define STARK_CORE_CHECK_NAMES_H

#include <iosfwd>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json_fwd.hpp>

namespace stark {

/// One guard; to_string gives its name in JSON ("correctness", "memcheck").
enum class CheckName {
  BaselineReplay,   // "baseline_replay": the original reproduces each capture
  Launch,           // "launch": the override is a valid launch
  NoCrash,          // "no_crash": no fault, no hang
  Correctness,      // "correctness": written buffers match, unread ones poisoned
  InputsUnchanged,  // "inputs_unchanged": what the original leaves alone stays so
  Guards,           // "guard_canaries": nothing written outside the buffers
  Repeat,           // "repeat_stable": same answer on a second launch
  OtherSizes,       // "other_sizes": same answer as the original at smaller sizes
  Fuzz,             // "fuzzed_inputs": same answer as the original on fuzzed data
  Recheck,          // "recheck_after_timing": still right after the timed runs
  Timing,           // "timing": timed, spread within bounds
  TimedOutputs,     // "timed_outputs": timed launches, read back at random, were right
  // The evaluator's own (harness/evaluator/), around the worker's.
  VariantCheck,        // "variant_check": the variant parses as the kernel (clang)
  Compile,             // "compile": the variant compiles for the judged architecture
  Signature,           // "signature": the same kernels with the same parameters
  RestrictAssumption,  // "restrict_assumption": no captured launch aliases a new __restrict__
  HostCode,            // "host_code": the patched file adds no host code
  Archs,               // "archs": compiles for every architecture the target builds
  Memcheck,            // "memcheck": compute-sanitizer finds no memory error
  Racecheck,           // "racecheck": compute-sanitizer finds no shared-memory race
  SpeedupPlausible,    // "speedup_plausible": never passed, a speedup flagged for a person
  WorkerInputs,        // "worker_inputs": a worker without a GPU read the shipped captures and cubins
  // The pipeline's own (pipeline/), on a kernel's result.
  Source,  // "source": the kernel's source could be read for its search
  Cache,   // "cache": the search was reused from the cache, re-verified on today's captures
};

const char* to_string(CheckName name);
/// The check a JSON name stands for; nullopt for any other name.
std::optional<CheckName> check_name_from_string(std::string_view name);
/// JSON: the name; reading any other name throws ("unknown check 'x'").
void to_json(nlohmann::json& j, CheckName value);
void from_json(const nlohmann::json& j, CheckName& value);
/// Streams the name (test failures, logs).
std::ostream& operator<<(std::ostream& os, CheckName value);

}  // namespace stark

/// fmt prints the name ("{}" of a CheckName is to_string of it).
template <>
struct fmt::formatter<stark::CheckName> : fmt::formatter<std::string_view> {
  auto format(stark::CheckName value, fmt::format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(stark::to_string(value), ctx);
  }
};

#endif  // STARK_CORE_CHECK_NAMES_H
