// What an expression, statement or function of a kernel is, read from
// clang's AST without regard to how it is spelled: a max or min written
// with ?: or kept by an if (a NaN winning it or not), an argmax kept beside
// its value, a pointer a loop walks, a constant zero, the comparisons of a
// bound check, a function that declares shared memory. KernelAnalysis (kernel_analysis.cpp) builds
// on them.
#ifndef STARK_CLANG_TOOL_AST_PATTERNS_H
#define STARK_CLANG_TOOL_AST_PATTERNS_H

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <optional>
#include <vector>

#include "clang_tool/kernel_analysis.h"

namespace stark::ast {

/// A function of the cooperative_groups namespace (or one nested in it).
bool in_cooperative_groups(const clang::FunctionDecl* f);

/// True when f, or a function it calls (a few levels down), declares a
/// __shared__ variable.
bool declares_shared_memory(const clang::FunctionDecl* f, int depth = 0);

/// A return, or a block holding only one.
bool is_return(const clang::Stmt* s);

/// The `<` and `>=` comparisons a bound check joins with && or ||
/// (`if (x >= W || y >= H) return;`, `if (i < n && j < m)`).
void collect_conjuncts(const clang::Expr* e, std::vector<const clang::BinaryOperator*>& out);

/// The same expression, structurally (in[j] and in[j], wherever written).
bool same_expr(clang::ASTContext& ctx, const clang::Expr* x, const clang::Expr* y);

/// How many times s writes var: assignments, increments, its address taken
/// (which it may be written through).
int writes_to(const clang::VarDecl* var, const clang::Stmt* s);

/// The variable a for loop declares in its init, if it declares one.
const clang::VarDecl* loop_variable(const clang::ForStmt* f);

/// Max when `pick` keeps the larger of the accumulator and some e (e > acc ?
/// e : acc, acc < e ? e : acc, acc > e ? acc : e...), Min for the smaller,
/// nothing otherwise; `value` is e. Operands compare structurally.
std::optional<ReduceOp> selected_extreme(clang::ASTContext& ctx, const clang::Expr* acc,
                                         const clang::ConditionalOperator* pick, const clang::Expr*& value);

/// Max for `if (e > acc) acc = e;` (braced or not, any order of the
/// comparison's operands), Min for `if (e < acc) acc = e;`; nothing for any
/// other if (an else, a second statement, another comparison). `assign` is
/// the assignment. `nan_wins` is set when the condition also takes a NaN
/// (`e > acc || isnan(e)`, `e < acc || e != e`): a NaN becomes the result
/// and stays, as torch's max and min keep it.
std::optional<ReduceOp> guarded_extreme(clang::ASTContext& ctx, const clang::IfStmt* s,
                                        const clang::BinaryOperator*& assign, bool& nan_wins);

/// An argmax or argmin kept by an if: the extreme's assignment and the one
/// that records where it was found.
struct ArgExtreme {
  ReduceOp op = ReduceOp::Max;
  bool nan_wins = false;                         // the first NaN is taken and kept
  const clang::BinaryOperator* value = nullptr;  // acc = e
  const clang::BinaryOperator* index = nullptr;  // idx = where
};

/// `if (e > acc) { acc = e; idx = where; }` (the two assignments in either
/// order, idx another local; `<` for a min). The comparison must be strict,
/// so that ties keep the first place; it may also take the first NaN
/// (`e < acc || (isnan(e) && !isnan(acc))`, torch's rule). Nothing for any
/// other if.
std::optional<ArgExtreme> guarded_arg_extreme(clang::ASTContext& ctx, const clang::IfStmt* s);

/// How a for loop's increment moves a variable.
struct LoopStep {
  const clang::VarDecl* stepped = nullptr;  // the variable the increment moves, when the header declares it
  const clang::Expr* step = nullptr;        // s in `i += s`
  bool unit_step = false;                   // ++i, i++, i += 1
  bool counts_down = false;                 // --i, i--, i -= 1
};

/// The step of f's increment; all unset for an increment of another form.
LoopStep loop_step(const clang::ForStmt* f);

/// A local pointer a loop walks: stepped once per iteration by a statement
/// of the loop's own body (`p += stride;`, `++p;`), written nowhere else in
/// the loop, declared before it.
struct PointerWalk {
  const clang::VarDecl* var = nullptr;
  const clang::Expr* step = nullptr;  // stride; nullptr for ++p and p++
  const clang::Stmt* statement = nullptr;
};

/// The pointers loop f walks.
std::vector<PointerWalk> pointer_walks(clang::ASTContext& ctx, const clang::ForStmt* f);

/// Whether a store to `target` stays in a variable of the kernel's own or
/// goes through `p[i]` of a named pointer (an Access): `x`, `s.f`, `buf[k]`.
/// Anything else (`*p`, `p->f`, a reference, `(p + k)[i]`) is memory the
/// accesses do not show.
bool names_storage(const clang::Expr* target);

/// A constant zero, evaluated by clang; in a template, a literal 0 (T total = 0).
bool is_zero(clang::ASTContext& ctx, const clang::Expr* init);

}  // namespace stark::ast

#endif  // STARK_CLANG_TOOL_AST_PATTERNS_H
