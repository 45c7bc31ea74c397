// Test support: a small CUDA project on disk with a manifest for it, written
// the way `stark scan` would (byte ranges, compile command, mangled names),
// for tests of the compile service, the worker and the evaluator.
#ifndef STARK_HARNESS_TESTING_TEST_PROJECT_H
#define STARK_HARNESS_TESTING_TEST_PROJECT_H

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/manifest.h"
#include "core/variant.h"

namespace stark::harness::testing {

/// Byte range of a kernel: from `start` (the first token of its declaration,
/// found in `text`) to just after the closing brace of its body.
ByteRange kernel_range(const std::string& text, const std::string& start);

/// A folder with source files; kernels are added to its manifest.
class TestProject {
 public:
  explicit TestProject(const std::string& name);  // fresh folder under the temp dir
  const std::filesystem::path& root() const { return root_; }

  void write(const std::string& relative, const std::string& text);
  std::string read(const std::string& relative) const;

  /// Adds a kernel defined in `file` (starting at `start`), compiled through
  /// translation unit `tu` with extra nvcc flags; params for its one instantiation.
  Kernel& add_kernel(const std::string& id_name, const std::string& file, const std::string& start,
                     const std::string& mangled, std::vector<Param> params, const std::string& tu = "",
                     std::vector<std::string> extra_flags = {});

  Manifest& manifest() { return manifest_; }
  std::string nvcc() const;

 private:
  std::filesystem::path root_;
  Manifest manifest_;
};

Param scalar(const std::string& name, const std::string& type, int size);
Param pointer(const std::string& name, const std::string& pointee, bool is_const);

/// src/scale.cu with `scale(int n, float a, const float* x, float* y)`,
/// y = a * x, whose annotation gives it inputs (`args`, x[n], y[n],
/// grid ceil_div(n, 256), block 256): a kernel evaluable without a capture.
Kernel& add_annotated_scale(TestProject& p, const std::string& args = "n=4096, a=2.5");

/// The kernel's own text (its byte range in its file): a candidate that
/// changes nothing.
Variant unchanged_variant(const TestProject& p, const Kernel& k);

/// src/axpb.cu with `axpb(int n, float a, float b, const float* x, float* y)`,
/// y = a * x + b, annotated with `args` (e.g. "n=1048576, a=1.5, b=0.5") and
/// buffers x[n], y[n]: the benchmarks' kernel.
Kernel& add_annotated_axpb(TestProject& p, const std::string& args);

/// `count` distinct correct candidates of axpb (elements per thread and block
/// size vary, with launch overrides; each compiles to its own cubin).
std::vector<Variant> axpb_candidates(const Kernel& axpb, int count);

}  // namespace stark::harness::testing

#endif  // STARK_HARNESS_TESTING_TEST_PROJECT_H
