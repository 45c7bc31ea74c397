// The clang front end's check of a candidate before anything compiles it
// (DESIGN.md section 4, "Variant"): the variant spliced into the kernel's
// file and parsed as the kernel's own translation unit must keep every
// device symbol, add only device helpers with internal linkage, no host
// code, no other kernels, no device-side launches, and include nothing from
// outside the project and the CUDA toolkit.
#ifndef STARK_CLANG_TOOL_VARIANT_CHECK_H
#define STARK_CLANG_TOOL_VARIANT_CHECK_H

#include <filesystem>

#include "clang_tool/nvcc_args.h"
#include "core/variant_validator.h"

namespace stark {

class ClangVariantValidator : public VariantValidator {
 public:
  /// source_root: where the manifest's relative file names live.
  ClangVariantValidator(ClangSetup setup, std::filesystem::path source_root);

  /// Thread-safe: every call parses in its own compiler instance.
  Expected<void> validate(const Kernel& kernel, const Variant& variant) override;

 private:
  ClangSetup setup_;
  std::filesystem::path root_;
};

}  // namespace stark

#endif  // STARK_CLANG_TOOL_VARIANT_CHECK_H
