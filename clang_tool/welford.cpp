#include "clang_tool/welford.h"

#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>

#include "clang_tool/ast_patterns.h"

namespace stark::ast {

using namespace clang;

namespace {

/// The kernel's own local variable e names (not a parameter), or nullptr.
const VarDecl* local_ref(const Expr* e) {
  const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  return var && var->hasLocalStorage() && !isa<ParmVarDecl>(var) ? var : nullptr;
}

/// `d = v - x` declared in the body: a deviation from local x.
struct Delta {
  const VarDecl* var = nullptr;
  const Expr* value = nullptr;    // v
  const VarDecl* from = nullptr;  // x
  const Stmt* statement = nullptr;
};

std::optional<Delta> delta_of(const Stmt* s) {
  const auto* ds = dyn_cast<DeclStmt>(s);
  const auto* var = ds && ds->isSingleDecl() ? dyn_cast<VarDecl>(ds->getSingleDecl()) : nullptr;
  if (!var || !var->hasInit()) return std::nullopt;
  const auto* sub = dyn_cast<BinaryOperator>(var->getInit()->IgnoreParenImpCasts());
  if (!sub || sub->getOpcode() != BO_Sub || !local_ref(sub->getRHS())) return std::nullopt;
  return Delta{var, sub->getLHS(), local_ref(sub->getRHS()), s};
}

/// A statement adding one: `++n`, `n++`, `n += 1`, `n += 1.0f`; n, or nullptr.
const VarDecl* stepped_by_one(const Stmt* s) {
  if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->isIncrementOp()) return local_ref(u->getSubExpr());
  const auto* add = dyn_cast<CompoundAssignOperator>(s);
  if (!add || add->getOpcode() != BO_AddAssign) return nullptr;
  const Expr* one = add->getRHS()->IgnoreParenImpCasts();
  const auto* i = dyn_cast<IntegerLiteral>(one);
  const auto* f = dyn_cast<FloatingLiteral>(one);
  if ((i && i->getValue() == 1) || (f && f->getValue().isExactlyValue(1.0))) return local_ref(add->getLHS());
  return nullptr;
}

bool declared_before(ASTContext& ctx, const VarDecl* v, const ForStmt* f) {
  return ctx.getSourceManager().isBeforeInTranslationUnit(v->getLocation(), f->getBeginLoc());
}

/// n when it is the loop's own i + 1 (or 1 + i), i counting up by one from zero.
bool is_iteration_count(ASTContext& ctx, const Expr* n, const ForStmt* f) {
  const auto* add = dyn_cast<BinaryOperator>(n);
  const VarDecl* i = loop_variable(f);
  if (!add || add->getOpcode() != BO_Add || !i || !i->hasInit() || !is_zero(ctx, i->getInit())) return false;
  const LoopStep step = loop_step(f);
  if (step.stepped != i || !step.unit_step) return false;
  auto one = [](const Expr* e) {
    const auto* lit = dyn_cast<IntegerLiteral>(e->IgnoreParenImpCasts());
    return lit && lit->getValue() == 1;
  };
  auto is_i = [&](const Expr* e) {
    const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return ref && ref->getDecl() == i;
  };
  return (is_i(add->getLHS()) && one(add->getRHS())) || (one(add->getLHS()) && is_i(add->getRHS()));
}

}  // namespace

std::optional<WelfordUpdate> welford_update(ASTContext& ctx, const ForStmt* f) {
  const auto* body = dyn_cast<CompoundStmt>(f->getBody());
  if (!body) return std::nullopt;
  std::vector<const Stmt*> stmts(body->body_begin(), body->body_end());
  WelfordUpdate out;
  std::optional<Delta> delta;
  size_t mean_at = 0;
  // mean += d / n, after d's declaration.
  for (size_t k = 0; k < stmts.size() && !out.mean; ++k) {
    const auto* add = dyn_cast<CompoundAssignOperator>(stmts[k]);
    if (!add || add->getOpcode() != BO_AddAssign || !local_ref(add->getLHS())) continue;
    const auto* div = dyn_cast<BinaryOperator>(add->getRHS()->IgnoreParenImpCasts());
    if (!div || div->getOpcode() != BO_Div) continue;
    for (size_t j = 0; j < k; ++j)
      if (auto d = delta_of(stmts[j]); d && d->var == local_ref(div->getLHS()) && d->from == local_ref(add->getLHS())) {
        delta = d;
        out.mean = d->from;
        out.count = div->getRHS()->IgnoreParenCasts();
        out.statements = {stmts[j], stmts[k]};
        mean_at = k;
      }
  }
  if (!out.mean || !declared_before(ctx, out.mean, f)) return std::nullopt;
  // The count: the loop's i + 1, or a counter stepped before the mean's update.
  if (const VarDecl* counter = local_ref(out.count)) {
    for (size_t j = 0; j < mean_at; ++j)
      if (stepped_by_one(stmts[j]) == counter) out.counter_step = stmts[j];
    if (!out.counter_step || !declared_before(ctx, counter, f) || !counter->hasInit() ||
        !is_zero(ctx, counter->getInit()) || writes_to(counter, body) != 1)
      return std::nullopt;
    out.counter = counter;
  } else if (!is_iteration_count(ctx, out.count, f)) {
    return std::nullopt;
  }
  // m2 += d * (v - mean), or d * d2 with d2 = v - mean declared after the
  // mean's update. The factor's match: nullptr when written in place, d2's
  // declaration, or nothing.
  auto deviation_from_new_mean = [&](const Expr* e) -> std::optional<const Stmt*> {
    const auto* sub = dyn_cast<BinaryOperator>(e->IgnoreParenImpCasts());
    if (sub && sub->getOpcode() == BO_Sub && local_ref(sub->getRHS()) == out.mean &&
        same_expr(ctx, sub->getLHS(), delta->value))
      return nullptr;
    for (size_t j = mean_at + 1; j < stmts.size(); ++j)
      if (auto d2 = delta_of(stmts[j]);
          d2 && d2->var == local_ref(e) && d2->from == out.mean && same_expr(ctx, d2->value, delta->value))
        return stmts[j];
    return std::nullopt;
  };
  for (size_t k = mean_at + 1; k < stmts.size() && !out.m2; ++k) {
    const auto* add = dyn_cast<CompoundAssignOperator>(stmts[k]);
    if (!add || add->getOpcode() != BO_AddAssign || !local_ref(add->getLHS())) continue;
    const auto* mul = dyn_cast<BinaryOperator>(add->getRHS()->IgnoreParenImpCasts());
    if (!mul || mul->getOpcode() != BO_Mul) continue;
    for (auto [d, other] : {std::pair{mul->getLHS(), mul->getRHS()}, std::pair{mul->getRHS(), mul->getLHS()}}) {
      if (out.m2 || local_ref(d) != delta->var) continue;
      auto second = deviation_from_new_mean(other);
      if (!second) continue;
      out.m2 = local_ref(add->getLHS());
      if (*second) out.statements.push_back(*second);
      out.statements.push_back(stmts[k]);
    }
  }
  if (!out.m2 || out.m2 == out.mean || !declared_before(ctx, out.m2, f)) return std::nullopt;
  if (writes_to(out.mean, body) != 1 || writes_to(out.m2, body) != 1) return std::nullopt;
  return out;
}

}  // namespace stark::ast
