#include "clang_tool/ast_patterns.h"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

namespace stark::ast {

using namespace clang;

bool in_cooperative_groups(const FunctionDecl* f) {
  for (const DeclContext* dc = f->getDeclContext(); dc; dc = dc->getParent())
    if (const auto* ns = dyn_cast<NamespaceDecl>(dc); ns && ns->getName() == "cooperative_groups") return true;
  return false;
}

bool declares_shared_memory(const FunctionDecl* f, int depth) {
  const FunctionDecl* def = f->getDefinition();
  if (!def || !def->hasBody() || depth > 3) return false;
  struct Finder : RecursiveASTVisitor<Finder> {
    bool found = false;
    int depth = 0;
    bool VisitVarDecl(VarDecl* v) {
      found = found || v->hasAttr<CUDASharedAttr>();
      return !found;
    }
    bool VisitCallExpr(CallExpr* c) {
      if (const FunctionDecl* callee = c->getDirectCallee()) found = found || declares_shared_memory(callee, depth + 1);
      return !found;
    }
  } finder;
  finder.depth = depth;
  finder.TraverseStmt(def->getBody());
  return finder.found;
}

bool is_return(const Stmt* s) {
  if (isa<ReturnStmt>(s)) return true;
  if (const auto* cs = dyn_cast<CompoundStmt>(s)) return cs->size() == 1 && isa<ReturnStmt>(cs->body_front());
  return false;
}

void collect_conjuncts(const Expr* e, std::vector<const BinaryOperator*>& out) {
  const auto* b = dyn_cast<BinaryOperator>(e);
  if (!b) return;
  if (b->getOpcode() == BO_LAnd || b->getOpcode() == BO_LOr) {
    collect_conjuncts(b->getLHS()->IgnoreParenImpCasts(), out);
    collect_conjuncts(b->getRHS()->IgnoreParenImpCasts(), out);
    return;
  }
  if (b->getOpcode() == BO_LT || b->getOpcode() == BO_GE) out.push_back(b);
}

const VarDecl* loop_variable(const ForStmt* f) {
  if (const auto* ds = dyn_cast_or_null<DeclStmt>(f->getInit()); ds && ds->isSingleDecl())
    return dyn_cast<VarDecl>(ds->getSingleDecl());
  return nullptr;
}

bool same_expr(ASTContext& ctx, const Expr* x, const Expr* y) {
  llvm::FoldingSetNodeID a, b;
  x->IgnoreParenImpCasts()->Profile(a, ctx, /*Canonical=*/true);
  y->IgnoreParenImpCasts()->Profile(b, ctx, /*Canonical=*/true);
  return a == b;
}

namespace {

/// Max when `cmp` holds for e above acc (e > acc, acc < e...), Min for e
/// below it; nothing when it compares anything else.
std::optional<ReduceOp> comparison_of(ASTContext& ctx, const BinaryOperator* cmp, const Expr* e, const Expr* acc) {
  bool e_left = same_expr(ctx, cmp->getLHS(), e) && same_expr(ctx, cmp->getRHS(), acc);
  bool e_right = same_expr(ctx, cmp->getRHS(), e) && same_expr(ctx, cmp->getLHS(), acc);
  if (e_left == e_right) return std::nullopt;
  bool e_greater = cmp->getOpcode() == BO_GT || cmp->getOpcode() == BO_GE;
  if (e_right) e_greater = !e_greater;
  return e_greater ? ReduceOp::Max : ReduceOp::Min;
}

/// Whether `test` is true exactly when e is a NaN: isnan(e) (std::, or the
/// C library's float and double spellings) or e != e.
bool is_nan_test(ASTContext& ctx, const Expr* test, const Expr* e) {
  test = test->IgnoreParenImpCasts();
  if (const auto* call = dyn_cast<CallExpr>(test); call && call->getNumArgs() == 1) {
    const FunctionDecl* f = call->getDirectCallee();
    std::string n = f && f->getIdentifier() ? f->getName().str() : "";
    // In a template, isnan(e) of a dependent e is a call to a name not yet resolved.
    if (const auto* unresolved = dyn_cast<UnresolvedLookupExpr>(call->getCallee()->IgnoreParenImpCasts()))
      n = unresolved->getName().getAsString();
    bool nan_test = n == "isnan" || n == "isnanf" || n == "__isnan" || n == "__isnanf" || n == "__isnand";
    return nan_test && same_expr(ctx, call->getArg(0), e);
  }
  if (const auto* ne = dyn_cast<BinaryOperator>(test); ne && ne->getOpcode() == BO_NE)
    return same_expr(ctx, ne->getLHS(), e) && same_expr(ctx, ne->getRHS(), e);
  return false;
}

}  // namespace

std::optional<ReduceOp> selected_extreme(ASTContext& ctx, const Expr* acc, const ConditionalOperator* pick,
                                         const Expr*& value) {
  const auto* cmp = dyn_cast<BinaryOperator>(pick->getCond()->IgnoreParenImpCasts());
  if (!cmp || !cmp->isRelationalOp()) return std::nullopt;
  const Expr* t = pick->getTrueExpr();
  const Expr* f = pick->getFalseExpr();
  bool e_when_true = same_expr(ctx, f, acc);
  if (!e_when_true && !same_expr(ctx, t, acc)) return std::nullopt;
  const Expr* e = e_when_true ? t : f;
  auto op = comparison_of(ctx, cmp, e, acc);
  if (!op) return std::nullopt;
  value = e;
  if (e_when_true) return op;
  return *op == ReduceOp::Max ? ReduceOp::Min : ReduceOp::Max;
}

std::optional<ReduceOp> guarded_extreme(ASTContext& ctx, const IfStmt* s, const BinaryOperator*& assign,
                                        bool& nan_wins) {
  if (s->getElse() || s->getInit() || s->getConditionVariable()) return std::nullopt;
  const Stmt* then = s->getThen();
  if (const auto* block = dyn_cast<CompoundStmt>(then)) {
    if (block->size() != 1) return std::nullopt;
    then = block->body_front();
  }
  const auto* set = dyn_cast<BinaryOperator>(then);
  if (!set || set->getOpcode() != BO_Assign) return std::nullopt;
  const auto* cmp = dyn_cast<BinaryOperator>(s->getCond()->IgnoreParenImpCasts());
  bool takes_nan = false;
  if (cmp && cmp->getOpcode() == BO_LOr) {
    // e > acc || isnan(e), either way round.
    const Expr* l = cmp->getLHS()->IgnoreParenImpCasts();
    const Expr* r = cmp->getRHS()->IgnoreParenImpCasts();
    if (is_nan_test(ctx, r, set->getRHS())) cmp = dyn_cast<BinaryOperator>(l);
    else if (is_nan_test(ctx, l, set->getRHS())) cmp = dyn_cast<BinaryOperator>(r);
    else return std::nullopt;
    takes_nan = true;
  }
  if (!cmp || !cmp->isRelationalOp()) return std::nullopt;
  auto op = comparison_of(ctx, cmp, set->getRHS(), set->getLHS());
  if (op) {
    assign = set;
    nan_wins = takes_nan;
  }
  return op;
}

namespace {

/// `isnan(e) && !isnan(acc)`, either way round: the first NaN is taken, and
/// a NaN taken is kept.
bool takes_first_nan(ASTContext& ctx, const Expr* test, const Expr* e, const Expr* acc) {
  const auto* both = dyn_cast<BinaryOperator>(test->IgnoreParenImpCasts());
  if (!both || both->getOpcode() != BO_LAnd) return false;
  auto not_nan = [&](const Expr* x) {
    const auto* n = dyn_cast<UnaryOperator>(x->IgnoreParenImpCasts());
    return n && n->getOpcode() == UO_LNot && is_nan_test(ctx, n->getSubExpr(), acc);
  };
  return (is_nan_test(ctx, both->getLHS(), e) && not_nan(both->getRHS())) ||
         (is_nan_test(ctx, both->getRHS(), e) && not_nan(both->getLHS()));
}

/// A plain `x = y` whose x names a local variable.
const BinaryOperator* local_assignment(const Stmt* s) {
  const auto* set = dyn_cast<BinaryOperator>(s);
  if (!set || set->getOpcode() != BO_Assign) return nullptr;
  const auto* ref = dyn_cast<DeclRefExpr>(set->getLHS()->IgnoreParenImpCasts());
  const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  return var && var->hasLocalStorage() && !isa<ParmVarDecl>(var) ? set : nullptr;
}

}  // namespace

namespace {

/// Counts the writes (assignments, increments) to one variable under a statement.
class WritesTo : public RecursiveASTVisitor<WritesTo> {
 public:
  explicit WritesTo(const VarDecl* var) : var_(var) {}
  bool VisitBinaryOperator(BinaryOperator* b) {
    if (b->isAssignmentOp()) count(b->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* u) {
    if (u->isIncrementDecrementOp()) count(u->getSubExpr());
    if (u->getOpcode() == UO_AddrOf) count(u->getSubExpr());  // &p may be written through
    return true;
  }
  int writes = 0;

 private:
  void count(const Expr* target) {
    const auto* ref = dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts());
    if (ref && ref->getDecl() == var_) ++writes;
  }
  const VarDecl* var_;
};

}  // namespace

int writes_to(const VarDecl* var, const Stmt* s) {
  WritesTo writes(var);
  writes.TraverseStmt(const_cast<Stmt*>(s));
  return writes.writes;
}

LoopStep loop_step(const ForStmt* f) {
  LoopStep out;
  const Expr* inc = f->getInc() ? f->getInc()->IgnoreParenImpCasts() : nullptr;
  const Expr* target = nullptr;
  if (const auto* u = dyn_cast_or_null<UnaryOperator>(inc)) {
    target = u->getSubExpr();
    out.unit_step = u->isIncrementOp();
    out.counts_down = u->isDecrementOp();
  }
  if (const auto* b = dyn_cast_or_null<CompoundAssignOperator>(inc)) {
    target = b->getLHS();
    if (b->getOpcode() == BO_AddAssign) out.step = b->getRHS();
    if (const auto* lit = dyn_cast<IntegerLiteral>(b->getRHS()->IgnoreParenImpCasts()); lit && lit->getValue() == 1) {
      out.unit_step = b->getOpcode() == BO_AddAssign;
      out.counts_down = b->getOpcode() == BO_SubAssign;
    }
  }
  const auto* ref = target ? dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts()) : nullptr;
  if (const auto* header = dyn_cast_or_null<DeclStmt>(f->getInit()); ref && header)
    for (const Decl* d : header->decls())
      if (d == ref->getDecl()) out.stepped = dyn_cast<VarDecl>(d);
  return out;
}

std::vector<PointerWalk> pointer_walks(ASTContext& ctx, const ForStmt* f) {
  std::vector<PointerWalk> out;
  const auto* block = dyn_cast<CompoundStmt>(f->getBody());
  if (!block) return out;
  const SourceManager& sm = ctx.getSourceManager();
  for (const Stmt* st : block->body()) {
    PointerWalk walk;
    const Expr* target = nullptr;
    if (const auto* u = dyn_cast<UnaryOperator>(st); u && u->isIncrementOp()) target = u->getSubExpr();
    if (const auto* b = dyn_cast<CompoundAssignOperator>(st); b && b->getOpcode() == BO_AddAssign) {
      target = b->getLHS();
      walk.step = b->getRHS();
    }
    const auto* ref = target ? dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts()) : nullptr;
    const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (!var || isa<ParmVarDecl>(var) || !var->hasLocalStorage() || !var->getType()->isPointerType()) continue;
    if (!sm.isBeforeInTranslationUnit(var->getLocation(), f->getBeginLoc())) continue;
    if (writes_to(var, f->getBody()) != 1) continue;
    walk.var = var;
    walk.statement = st;
    out.push_back(walk);
  }
  return out;
}

std::optional<ArgExtreme> guarded_arg_extreme(ASTContext& ctx, const IfStmt* s) {
  if (s->getElse() || s->getInit() || s->getConditionVariable()) return std::nullopt;
  const auto* block = dyn_cast<CompoundStmt>(s->getThen());
  if (!block || block->size() != 2) return std::nullopt;
  const BinaryOperator* first = local_assignment(block->body_front());
  const BinaryOperator* second = local_assignment(block->body_back());
  if (!first || !second) return std::nullopt;
  const Expr* cond = s->getCond()->IgnoreParenImpCasts();
  for (auto [value, index] : {std::pair{first, second}, std::pair{second, first}}) {
    const Expr* e = value->getRHS();
    const Expr* acc = value->getLHS();
    if (same_expr(ctx, index->getLHS(), acc)) return std::nullopt;
    const auto* cmp = dyn_cast<BinaryOperator>(cond);
    bool nan_wins = false;
    if (cmp && cmp->getOpcode() == BO_LOr) {
      const Expr* l = cmp->getLHS()->IgnoreParenImpCasts();
      const Expr* r = cmp->getRHS()->IgnoreParenImpCasts();
      if (takes_first_nan(ctx, r, e, acc)) cmp = dyn_cast<BinaryOperator>(l);
      else if (takes_first_nan(ctx, l, e, acc)) cmp = dyn_cast<BinaryOperator>(r);
      else continue;
      nan_wins = true;
    }
    if (!cmp || (cmp->getOpcode() != BO_LT && cmp->getOpcode() != BO_GT)) continue;
    if (auto op = comparison_of(ctx, cmp, e, acc)) return ArgExtreme{*op, nan_wins, value, index};
  }
  return std::nullopt;
}

bool names_storage(const Expr* target) {
  const Expr* e = target->IgnoreParenImpCasts();
  if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) {
    const auto* base = dyn_cast<DeclRefExpr>(sub->getBase()->IgnoreParenImpCasts());
    return base && isa<VarDecl>(base->getDecl());
  }
  while (const auto* m = dyn_cast<MemberExpr>(e)) {
    if (m->isArrow()) return false;
    e = m->getBase()->IgnoreParenImpCasts();
  }
  const auto* ref = dyn_cast<DeclRefExpr>(e);
  const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  return var && !var->getType()->isReferenceType();
}

bool is_zero(ASTContext& ctx, const Expr* init) {
  const Expr* e = init->IgnoreParenImpCasts();
  if (!e->isValueDependent()) {
    Expr::EvalResult er;
    if (e->EvaluateAsRValue(er, ctx)) {
      if (er.Val.isInt()) return er.Val.getInt() == 0;
      if (er.Val.isFloat()) return er.Val.getFloat().isZero();
    }
  }
  if (const auto* i = dyn_cast<IntegerLiteral>(e)) return i->getValue() == 0;
  if (const auto* f = dyn_cast<FloatingLiteral>(e)) return f->getValue().isZero();
  return false;
}

}  // namespace stark::ast
