// [[stark::optimize(...)]] for clang: registration of the attribute, and
// reading the options back from the AnnotateAttr both spellings become.
// Clang headers stay inside clang_tool/ (see ARCHITECTURE.md).
#ifndef STARK_CLANG_TOOL_ANNOTATION_H
#define STARK_CLANG_TOOL_ANNOTATION_H

#include <string>
#include <vector>

namespace clang {
class AnnotateAttr;
class Decl;
class SourceManager;
}  // namespace clang

namespace stark {

/// The annotation string every spelling carries: the STARK_OPTIMIZE macro
/// writes [[clang::annotate("stark::optimize", ...)]] itself, and the raw
/// [[stark::optimize(...)]] is turned into the same AnnotateAttr.
inline constexpr const char* kAnnotation = "stark::optimize";

/// Registers [[stark::optimize]] with clang's attribute registry (once per
/// process; call before parsing).
void register_stark_attribute();

/// The first STARK AnnotateAttr written on this declaration itself (not
/// inherited from an earlier declaration), or null.
const clang::AnnotateAttr* own_stark_annotation(const clang::Decl* d);

/// True when the declaration or any redeclaration carries the annotation.
bool has_stark_annotation(const clang::Decl* d);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_ANNOTATION_H
