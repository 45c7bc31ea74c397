// The check every candidate passes before anything compiles it: is it a
// variant as docs/CONTRACTS.md defines one (same device symbols, device
// helpers only, no host code, no foreign includes)? Implemented with the
// clang front end (clang_tool/variant_check.h); the search sees only this.
#ifndef STARK_CORE_VARIANT_VALIDATOR_H
#define STARK_CORE_VARIANT_VALIDATOR_H

#include "core/expected.h"
#include "core/manifest.h"
#include "core/variant.h"

namespace stark {

class VariantValidator {
 public:
  virtual ~VariantValidator() = default;
  /// Ok, or an Error whose message is fit for the debug role and the report.
  /// Must be safe to call from several threads.
  virtual Expected<void> validate(const Kernel& kernel, const Variant& variant) = 0;
};

}  // namespace stark

#endif  // STARK_CORE_VARIANT_VALIDATOR_H
