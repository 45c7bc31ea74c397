// Parsing a kernel's translation unit with other text in place of the
// kernel's range: what the variant check and the kernel analysis both do.
// Includes clang headers: for clang_tool's own .cpp files only.
#ifndef STARK_CLANG_TOOL_PATCHED_UNIT_H
#define STARK_CLANG_TOOL_PATCHED_UNIT_H

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "clang_tool/nvcc_args.h"
#include "core/diagnostic.h"
#include "core/expected.h"
#include "core/manifest.h"

namespace stark {

/// The kernel's file with `source` spliced into the kernel's range.
struct PatchedSource {
  std::filesystem::path file;  // absolute
  std::string text;            // the whole patched file
  int64_t begin = 0, end = 0;  // where `source` sits in it
  int first_line = 1;          // line of `begin`
  int lines = 1;               // lines of `source`
  int original_lines = 1;      // lines of the kernel's range it replaced

  /// True when loc (expanded) lies in the spliced text.
  bool contains(const clang::SourceManager& sm, clang::SourceLocation loc) const;
  /// Offset of loc (expanded) relative to `begin`; -1 outside the patch.
  int64_t offset(const clang::SourceManager& sm, clang::SourceLocation loc) const;
  /// "variant line 3:7: msg" for diagnostics inside the patch, else d.format().
  std::string describe(const Diagnostic& d) const;
};

Expected<PatchedSource> patch_kernel_file(const Kernel& kernel, const std::string& source,
                                          const std::filesystem::path& source_root);

using ConsumerFactory = std::function<std::unique_ptr<clang::ASTConsumer>(clang::CompilerInstance&)>;

/// Parses the kernel's unit (host side, like scan) with the patched file
/// overlaid; returns the errors the patch brought: every error inside it,
/// and those elsewhere that clang does not report for the unit as it is on
/// disk (host code nvcc accepts and clang does not is the unit's, not the
/// patch's). After a fatal error (a header not found) every error counts.
/// Consumers see the AST whatever the errors.
std::vector<Diagnostic> parse_patched(const Kernel& kernel, const PatchedSource& patch, const ClangSetup& setup,
                                      const ConsumerFactory& consumer);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_PATCHED_UNIT_H
