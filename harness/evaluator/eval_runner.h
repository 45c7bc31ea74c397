// `stark eval` as a library: one variant against the original on a kernel's
// captures; prints the stark.evaluation/1 JSON on standard output.
#ifndef STARK_HARNESS_EVALUATOR_EVAL_RUNNER_H
#define STARK_HARNESS_EVALUATOR_EVAL_RUNNER_H

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include "harness/capture/capture_runner.h"
#include "harness/evaluator/gpu_evaluator.h"

namespace stark::harness {

struct EvalOptions {
  std::string manifest;
  std::string kernel;
  std::string variant;
  GpuEvaluatorOptions evaluator;  // store / cache default to the manifest's build dir
  /// The static check of an untrusted variant before anything compiles it
  /// (stark's clang variant check; unset in stark-harness, which has no
  /// clang). `source_root` is the manifest's.
  std::function<Expected<void>(const Kernel&, const Variant&, const std::string& source_root)> validate;
};

/// Exit code: 0 accepted, 1 rejected or not evaluated (no GPU: one line on stderr).
int run_eval(EvalOptions options, const Printer& out);

/// The one line `stark eval` says of a verdict. An accepted candidate whose
/// sanitizer or host-code gates did not run reads "correct, not sanitized:
/// ..." with why, never plain "accepted"; gates that judged nothing (no
/// smaller size) are named too.
std::string verdict_line(const Evaluation& e);

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_EVAL_RUNNER_H
