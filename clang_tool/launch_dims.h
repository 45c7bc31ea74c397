// What the scan records about a launch's grid and block arguments so the
// rewriter can write an override the way a person would: whether each is an
// integer or a dim3, and, when it is a local variable, where that variable is
// declared and read (a rewrite that replaces every read drops it too).
#ifndef STARK_CLANG_TOOL_LAUNCH_DIMS_H
#define STARK_CLANG_TOOL_LAUNCH_DIMS_H

#include <optional>

#include "core/manifest.h"

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
}  // namespace clang

namespace stark {

/// The type of a grid or block argument as written, before the implicit
/// conversion to dim3; Unknown while it depends on a template parameter.
DimType dim_type(const clang::Expr* arg);

/// The local variable `arg` names, when it is declared alone in `caller`
/// with an initializer free of side effects (calls only to constexpr
/// functions) and every declaration and read is spelled in the file.
std::optional<LaunchVariable> launch_variable(const clang::Expr* arg, const clang::FunctionDecl* caller,
                                              clang::ASTContext& ctx);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_LAUNCH_DIMS_H
