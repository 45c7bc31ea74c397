// The parse half of the variant check: what a variant declares, as clang
// sees it spliced into the kernel's translation unit. Includes clang
// headers: for clang_tool's own .cpp files only.
#ifndef STARK_CLANG_TOOL_VARIANT_DECLS_H
#define STARK_CLANG_TOOL_VARIANT_DECLS_H

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/PPCallbacks.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "clang_tool/patched_unit.h"
#include "core/manifest.h"

namespace stark {

/// The variant in its file, and what the parse found there.
struct VariantScope {
  PatchedSource patch;
  std::vector<std::string> problems;
  std::set<std::string> kernel_symbols;  // device symbols of the kernel's definitions
  bool kernel_found = false;
  bool file_parsed = false;  // the unit included the patched file at all
};

/// Checks every declaration of the variant: the kernel, static __device__
/// helpers, types, constants without code to run, nothing the code after
/// the variant would use.
std::unique_ptr<clang::ASTConsumer> make_variant_decl_check(VariantScope& scope, const Kernel& kernel);

/// Refuses every pragma inside the variant but the loop pragmas, including
/// those a project macro expands to.
std::unique_ptr<clang::PPCallbacks> make_variant_pragma_check(clang::SourceManager& sm, VariantScope& scope);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_VARIANT_DECLS_H
