// Test support: the fixture of the tests that put the annotated scale kernel
// through a GpuEvaluator (the evaluator's, the worker pool's, the executors').
#ifndef STARK_HARNESS_TESTING_SCALE_EVALUATOR_TEST_H
#define STARK_HARNESS_TESTING_SCALE_EVALUATOR_TEST_H

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "harness/testing/evaluator_options.h"

namespace stark::harness::testing {

/// A TestProject named after the running test, holding src/scale.cu
/// (add_annotated_scale), and evaluator options pointing into it.
class ScaleEvaluatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    p = std::make_unique<TestProject>(std::string(test->test_suite_name()) + "_" + test->name());
    add_annotated_scale(*p);
    options = evaluator_options(*p);
    options.compile_jobs = 2;
  }

  const Kernel& kernel() const { return *p->manifest().find_kernel("src/scale.cu:scale"); }

  static Variant variant(std::string source) { return Variant{"src/scale.cu:scale", std::move(source), {}}; }

  /// A correct candidate that differs from every other `k`: each compiles to a
  /// cubin of its own, so none is answered from another's cache entry.
  static Variant distinct_variant(int k) {
    return variant(
        "__global__ void scale(int n, float a, const float* x, float* y) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (i < n && n != -" +
        std::to_string(k) + ") y[i] = a * x[i];\n}");
  }

  static const Check* find(const Evaluation& e, CheckName name) {
    for (const auto& c : e.checks)
      if (c.name == name) return &c;
    return nullptr;
  }

  std::unique_ptr<TestProject> p;
  GpuEvaluatorOptions options;
};

}  // namespace stark::harness::testing

#endif  // STARK_HARNESS_TESTING_SCALE_EVALUATOR_TEST_H
