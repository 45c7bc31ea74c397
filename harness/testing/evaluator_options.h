// Test support: evaluator options that keep everything a test's evaluator
// writes (captures, compiled kernels) inside its TestProject.
#ifndef STARK_HARNESS_TESTING_EVALUATOR_OPTIONS_H
#define STARK_HARNESS_TESTING_EVALUATOR_OPTIONS_H

#include "harness/evaluator/gpu_evaluator.h"
#include "harness/testing/test_project.h"

namespace stark::harness::testing {

/// Captures and cache in the project's folder, the project's nvcc, and only
/// the GPU's own architecture checked (a test builds one cubin, not all).
inline GpuEvaluatorOptions evaluator_options(const TestProject& p) {
  GpuEvaluatorOptions o;
  o.store = p.root() / "captures";
  o.cache_dir = p.root() / "cache";
  o.nvcc = p.nvcc();
  o.check_all_archs = false;
  return o;
}

}  // namespace stark::harness::testing

#endif  // STARK_HARNESS_TESTING_EVALUATOR_OPTIONS_H
