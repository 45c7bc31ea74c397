// The names of the guards a verdict rests on (docs/design.md, "What a
// speedup must survive"), as they appear in a result's checks. The GPU
// worker runs the first group; the evaluator adds its own around them.
#ifndef STARK_CORE_CHECK_NAMES_H
#define STARK_CORE_CHECK_NAMES_H

namespace stark::check {

/// The original reproduces each capture.
inline constexpr const char* kBaselineReplay = "baseline_replay";
/// The override is a valid launch.
inline constexpr const char* kLaunch = "launch";
/// No fault, no hang.
inline constexpr const char* kNoCrash = "no_crash";
/// Written buffers match, unread ones poisoned.
inline constexpr const char* kCorrectness = "correctness";
/// What the original leaves alone stays so.
inline constexpr const char* kInputsUnchanged = "inputs_unchanged";
/// Nothing written outside the buffers.
inline constexpr const char* kGuards = "guard_canaries";
/// Same answer on a second launch.
inline constexpr const char* kRepeat = "repeat_stable";
/// Same answer as the original at smaller sizes.
inline constexpr const char* kOtherSizes = "other_sizes";
/// Same answer as the original on fuzzed data.
inline constexpr const char* kFuzz = "fuzzed_inputs";
/// Still right after the timed runs.
inline constexpr const char* kRecheck = "recheck_after_timing";
/// Timed (spread within bounds).
inline constexpr const char* kTiming = "timing";
/// Timed launches, read back at random, were right.
inline constexpr const char* kTimedOutputs = "timed_outputs";
// The evaluator's own (harness/evaluator/), around the worker's.
/// The variant parses as the kernel (clang).
inline constexpr const char* kVariantCheck = "variant_check";
/// The variant compiles for the judged architecture.
inline constexpr const char* kCompile = "compile";
/// The same kernels with the same parameters.
inline constexpr const char* kSignature = "signature";
/// No captured launch aliases a new __restrict__.
inline constexpr const char* kRestrictAssumption = "restrict_assumption";
/// The patched file adds no host code.
inline constexpr const char* kHostCode = "host_code";
/// Compiles for every architecture the target builds.
inline constexpr const char* kArchs = "archs";
/// Compute-sanitizer finds no memory error.
inline constexpr const char* kMemcheck = "memcheck";
/// Compute-sanitizer finds no shared-memory race.
inline constexpr const char* kRacecheck = "racecheck";
/// Never passed: a speedup flagged for a person.
inline constexpr const char* kSpeedupPlausible = "speedup_plausible";

}  // namespace stark::check

#endif  // STARK_CORE_CHECK_NAMES_H
