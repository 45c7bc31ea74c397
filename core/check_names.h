// The names of the guards a verdict rests on (docs/design.md, "What a
// speedup must survive"), as they appear in a result's checks. The GPU
// worker runs the first group; the evaluator adds its own around them.
#ifndef STARK_CORE_CHECK_NAMES_H
#define STARK_CORE_CHECK_NAMES_H

namespace stark::check {

inline constexpr const char* kBaselineReplay = "baseline_replay";    // the original reproduces each capture
inline constexpr const char* kLaunch = "launch";                     // the override is a valid launch
inline constexpr const char* kNoCrash = "no_crash";                  // no fault, no hang
inline constexpr const char* kCorrectness = "correctness";           // written buffers match, unread ones poisoned
inline constexpr const char* kInputsUnchanged = "inputs_unchanged";  // what the original leaves alone stays so
inline constexpr const char* kGuards = "guard_canaries";             // nothing written outside the buffers
inline constexpr const char* kRepeat = "repeat_stable";              // same answer on a second launch
inline constexpr const char* kOtherSizes = "other_sizes";            // same answer as the original at smaller sizes
inline constexpr const char* kFuzz = "fuzzed_inputs";                // same answer as the original on fuzzed data
inline constexpr const char* kRecheck = "recheck_after_timing";      // still right after the timed runs
inline constexpr const char* kTiming = "timing";                     // timed (spread within bounds)
inline constexpr const char* kTimedOutputs = "timed_outputs";        // timed launches, read back at random, were right
// The evaluator's own (harness/evaluator/), around the worker's.
inline constexpr const char* kVariantCheck = "variant_check";        // the variant parses as the kernel (clang)
inline constexpr const char* kCompile = "compile";                   // the variant compiles for the judged architecture
inline constexpr const char* kSignature = "signature";               // the same kernels with the same parameters
inline constexpr const char* kRestrictAssumption = "restrict_assumption";  // no captured launch aliases a new __restrict__
inline constexpr const char* kHostCode = "host_code";                // the patched file adds no host code
inline constexpr const char* kArchs = "archs";                       // compiles for every architecture the target builds
inline constexpr const char* kMemcheck = "memcheck";                 // compute-sanitizer finds no memory error
inline constexpr const char* kRacecheck = "racecheck";               // compute-sanitizer finds no shared-memory race
inline constexpr const char* kSpeedupPlausible = "speedup_plausible";  // never passed: a speedup flagged for a person

}  // namespace stark::check

#endif  // STARK_CORE_CHECK_NAMES_H
