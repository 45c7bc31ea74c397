#include "clang_tool/ast_patterns.h"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>

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

std::optional<ReduceOp> selected_extreme(ASTContext& ctx, const Expr* acc, const ConditionalOperator* pick,
                                         const Expr*& value) {
  const auto* cmp = dyn_cast<BinaryOperator>(pick->getCond()->IgnoreParenImpCasts());
  if (!cmp || !cmp->isRelationalOp()) return std::nullopt;
  // The same expression, structurally (in[j] and in[j], wherever written).
  auto same = [&ctx](const Expr* x, const Expr* y) {
    llvm::FoldingSetNodeID a, b;
    x->IgnoreParenImpCasts()->Profile(a, ctx, /*Canonical=*/true);
    y->IgnoreParenImpCasts()->Profile(b, ctx, /*Canonical=*/true);
    return a == b;
  };
  const Expr* t = pick->getTrueExpr();
  const Expr* f = pick->getFalseExpr();
  bool e_when_true = same(f, acc);
  if (!e_when_true && !same(t, acc)) return std::nullopt;
  const Expr* e = e_when_true ? t : f;
  bool e_left = same(cmp->getLHS(), e) && same(cmp->getRHS(), acc);
  bool e_right = same(cmp->getRHS(), e) && same(cmp->getLHS(), acc);
  if (e_left == e_right) return std::nullopt;
  // The condition read as "e > acc" or "e < acc".
  bool e_greater = cmp->getOpcode() == BO_GT || cmp->getOpcode() == BO_GE;
  if (e_right) e_greater = !e_greater;
  value = e;
  return e_greater == e_when_true ? ReduceOp::Max : ReduceOp::Min;
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
