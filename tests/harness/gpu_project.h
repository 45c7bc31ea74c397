// The harness's GPU test project on disk: tests/harness/project copied into
// a work folder, its manifest (as `stark scan` would write it), and capture
// stores whose captures were computed on the CPU, so the reference results
// do not depend on the code under test.
#ifndef STARK_TESTS_HARNESS_GPU_PROJECT_H
#define STARK_TESTS_HARNESS_GPU_PROJECT_H

#include <filesystem>
#include <string>

#include "core/manifest.h"
#include "harness/evaluator/gpu_evaluator.h"

namespace stark::harness::testing {

/// "" when a CUDA GPU is usable here, else why not (for GTEST_SKIP).
std::string no_gpu_reason();

struct GpuProject {
  std::filesystem::path root;  // the project (kernels.cu, kernels.h)
  std::filesystem::path work;  // stores, cache
  Manifest manifest;

  /// Creates the project and its manifest under `work`.
  static GpuProject create(const std::filesystem::path& work);

  /// Writes CPU-computed captures: "default" (every kernel; scale three
  /// times: a first call, a second call on buffers already holding the
  /// answer, and in place with x == y) or "second_call" (that one only).
  std::filesystem::path store(const std::string& name) const;

  /// Evaluator options for the tests: short timing, short watchdog, sanitizer always.
  GpuEvaluatorOptions options(const std::string& store_name) const;
};

}  // namespace stark::harness::testing

#endif  // STARK_TESTS_HARNESS_GPU_PROJECT_H
