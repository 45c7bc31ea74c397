#include "clang_tool/kernel_references.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>

namespace stark {

using namespace clang;

bool address_escapes(const DeclRefExpr& ref, ASTContext& ctx) {
  const SourceManager& sm = ctx.getSourceManager();
  DynTypedNode node = DynTypedNode::create(ref);
  for (int guard = 0; guard < 16; ++guard) {
    auto parents = ctx.getParents(node);
    if (parents.empty()) return true;
    const DynTypedNode& parent = parents[0];
    if (const auto* call = parent.get<CUDAKernelCallExpr>()) return call->getCallee()->IgnoreParenImpCasts() != &ref;
    if (const auto* call = parent.get<CallExpr>()) {
      const FunctionDecl* callee = call->getDirectCallee();
      return !callee || !sm.isInSystemHeader(sm.getExpansionLoc(callee->getLocation()));
    }
    const auto* e = parent.get<Expr>();
    const auto* unary = parent.get<UnaryOperator>();
    if (!e || !(isa<CastExpr>(e) || isa<ParenExpr>(e) || (unary && unary->getOpcode() == UO_AddrOf))) return true;
    node = parent;
  }
  return true;
}

namespace {

void collect_names(Stmt* s, std::vector<DeclRefExpr*>& out) {
  if (!s) return;
  if (auto* ref = dyn_cast<DeclRefExpr>(s)) out.push_back(ref);
  for (Stmt* child : s->children()) collect_names(child, out);
}

}  // namespace

std::vector<DeclRefExpr*> names_initialized(InitListExpr* list) {
  std::vector<DeclRefExpr*> out;
  if (InitListExpr* semantic = list->isSemanticForm() ? nullptr : list->getSemanticForm())
    for (Stmt* init : semantic->children()) collect_names(init, out);
  return out;
}

}  // namespace stark
