#include "clang_tool/launch_dims.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace stark {

using namespace clang;

namespace {

/// `arg` without the conversions clang wraps around a launch argument: the
/// implicit casts, and the dim3 constructor an integer or a copy goes through.
const Expr* as_written(const Expr* arg) {
  const Expr* e = arg->IgnoreImplicit();
  if (const auto* c = dyn_cast<CXXConstructExpr>(e);
      c && !isa<CXXTemporaryObjectExpr>(c) && c->getNumArgs() >= 1 && !c->getParenOrBraceRange().isValid())
    e = c->getArg(0)->IgnoreImplicit();
  return e;
}

bool is_dim3(QualType t) {
  const CXXRecordDecl* rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->getName() == "dim3";
}

/// No side effects, and calls only to constexpr functions (blocks_for(n)).
bool pure(const Stmt* s, ASTContext& ctx) {
  if (!s) return true;
  if (const auto* e = dyn_cast<Expr>(s); e && e->HasSideEffects(ctx, /*IncludePossibleEffects=*/false)) return false;
  if (const auto* call = dyn_cast<CallExpr>(s)) {
    const FunctionDecl* f = call->getDirectCallee();
    if (!f || !f->isConstexpr()) return false;
  }
  for (const Stmt* kid : s->children())
    if (!pure(kid, ctx)) return false;
  return true;
}

/// The declaration of `var` in `body` and every reference to it, lambdas included.
void find(const Stmt* s, const VarDecl* var, const DeclStmt*& decl, std::vector<const DeclRefExpr*>& uses) {
  if (!s) return;
  if (const auto* ds = dyn_cast<DeclStmt>(s))
    for (const Decl* d : ds->decls())
      if (d == var) decl = ds;
  if (const auto* ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == var) uses.push_back(ref);
  if (const auto* lambda = dyn_cast<LambdaExpr>(s)) find(lambda->getBody(), var, decl, uses);
  for (const Stmt* kid : s->children()) find(kid, var, decl, uses);
}

}  // namespace

DimType dim_type(const Expr* arg) {
  if (!arg) return DimType::Unknown;
  const Expr* e = as_written(arg);
  QualType t = e->getType();
  if (t.isNull() || t->isDependentType()) return DimType::Unknown;
  if (t->isIntegralOrEnumerationType()) return DimType::Integer;
  if (!is_dim3(t)) return DimType::Unknown;
  // dim3(x), dim3(x, y), dim3{x, y, z}: written arguments, all integers.
  const Expr* built = e;
  if (const auto* cast = dyn_cast<CXXFunctionalCastExpr>(built)) built = cast->getSubExpr()->IgnoreImplicit();
  const auto* construct = dyn_cast<CXXConstructExpr>(built);
  if (!construct || (built == e && !isa<CXXTemporaryObjectExpr>(construct))) return DimType::Dim3;
  unsigned written = 0;
  for (const Expr* a : construct->arguments()) {
    if (isa<CXXDefaultArgExpr>(a)) continue;
    QualType at = a->IgnoreImplicit()->getType();
    if (at.isNull() || !at->isIntegralOrEnumerationType()) return DimType::Dim3;
    ++written;
  }
  return written > 0 ? DimType::Dim3Args : DimType::Dim3;
}

std::optional<LaunchVariable> launch_variable(const Expr* arg, const FunctionDecl* caller, ASTContext& ctx) {
  if (!arg || !caller || !caller->hasBody()) return std::nullopt;
  const auto* ref = dyn_cast<DeclRefExpr>(as_written(arg));
  const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!var || !var->isLocalVarDecl() || !var->hasInit() || !pure(var->getInit(), ctx)) return std::nullopt;
  const DeclStmt* decl = nullptr;
  std::vector<const DeclRefExpr*> uses;
  find(caller->getBody(), var, decl, uses);
  if (!decl || !decl->isSingleDecl() || uses.empty()) return std::nullopt;
  const SourceManager& sm = ctx.getSourceManager();
  auto in_file = [&](SourceLocation loc) { return loc.isValid() && loc.isFileID(); };
  if (!in_file(decl->getBeginLoc()) || !in_file(decl->getEndLoc())) return std::nullopt;
  FileID file = sm.getFileID(decl->getBeginLoc());
  LaunchVariable v;
  v.name = var->getNameAsString();
  v.decl = {sm.getFileOffset(decl->getBeginLoc()), sm.getFileOffset(decl->getEndLoc()) + 1};  // through the ';'
  for (const DeclRefExpr* use : uses) {
    SourceLocation at = use->getLocation();
    if (!in_file(at) || sm.getFileID(at) != file) return std::nullopt;
    int64_t begin = sm.getFileOffset(at);
    v.uses.push_back({begin, begin + static_cast<int64_t>(v.name.size())});
  }
  return v;
}

}  // namespace stark
