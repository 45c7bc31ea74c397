// Welford's running mean and second moment, recognised in a loop's AST: the
// one-pass mean and variance normalisation layers keep per element, which a
// plain sum cannot split over threads (the mean's update feeds the second
// moment's) but Chan's combination of (count, mean, m2) parts can.
#ifndef STARK_CLANG_TOOL_WELFORD_H
#define STARK_CLANG_TOOL_WELFORD_H

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include <optional>
#include <vector>

namespace stark::ast {

/// One Welford update per iteration, on an element v:
///   const T d = v - mean;  mean += d / n;  m2 += d * (v - mean);
/// in the loop's own braces. The second factor may also be a local declared
/// with v - mean after the mean's update (`d2`), either factor first. n
/// counts the elements so far: the loop's own i + 1 (i from zero, stepping
/// by one; any casts around), or a local counter stepped by one earlier in
/// the body (`n += 1`, `++n`) from zero. mean, m2 and the counter are locals
/// declared before the loop that nothing else in it writes.
struct WelfordUpdate {
  const clang::VarDecl* mean = nullptr;
  const clang::VarDecl* m2 = nullptr;
  const clang::Expr* count = nullptr;          // n: `i + 1` (inside its casts), or the counter's use
  const clang::VarDecl* counter = nullptr;     // nullptr when n is the loop's i + 1
  const clang::Stmt* counter_step = nullptr;   // `++n;`
  std::vector<const clang::Stmt*> statements;  // the deltas' declarations and the two updates, in order
};

/// The Welford update loop f's body makes, or nothing.
std::optional<WelfordUpdate> welford_update(clang::ASTContext& ctx, const clang::ForStmt* f);

}  // namespace stark::ast

#endif  // STARK_CLANG_TOOL_WELFORD_H
