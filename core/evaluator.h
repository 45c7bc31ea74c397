// The boundary between the search (agents/) and the judge of candidates
// (harness/ on a GPU, or a simulation in tests).
#ifndef STARK_CORE_EVALUATOR_H
#define STARK_CORE_EVALUATOR_H

#include <optional>

#include "core/evaluation.h"
#include "core/gpu_info.h"
#include "core/manifest.h"
#include "core/variant.h"

namespace stark {

/// Judges candidate kernels: compiles them, checks them against the
/// baseline on the kernel's captured inputs, and times both.
class Evaluator {
 public:
  virtual ~Evaluator() = default;

  /// Evaluates one variant of a manifest kernel. Must be safe to call from
  /// several threads at once (the search keeps several candidates in flight).
  /// Without a GPU an implementation still compiles the variant and returns
  /// verdict Error with compile_ok set and a reason saying nothing was timed.
  virtual Evaluation evaluate(const Kernel& kernel, const Variant& variant) = 0;

  /// The GPU candidates are timed on; nullopt when there is none.
  virtual std::optional<GpuInfo> gpu() const = 0;
};

}  // namespace stark

#endif  // STARK_CORE_EVALUATOR_H
