// The clang front end's check of a candidate before anything compiles it
// (docs/CONTRACTS.md, "Variant"): the
// variant's text holds no preprocessor directive but #pragma unroll and no
// __CUDA_ARCH__ (variant_text.h); spliced into the kernel's file and parsed
// as the kernel's own translation unit, it must keep every device symbol
// and add only device helpers with internal linkage, types whose member
// functions are device code, and constants with nothing to run: no host
// code, no static initialisers, no other kernels, no device-side launches,
// nothing the code after it would use (variant_decls.h).
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
