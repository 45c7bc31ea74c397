#include "clang_tool/annotation.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/ParsedAttrInfo.h>
#include <clang/Sema/ParsedAttr.h>
#include <clang/Sema/Sema.h>

namespace stark {

namespace {

/// Turns [[stark::optimize("k=v", ...)]] into AnnotateAttr("stark::optimize", "k=v", ...).
/// Validation happens after parsing (kernel_collector), where both spellings
/// meet as the same attribute and errors can point at the right token.
class StarkOptimizeAttrInfo : public clang::ParsedAttrInfo {
 public:
  StarkOptimizeAttrInfo() {
    OptArgs = 15;
    // Clang 19 drops the arguments of a scoped plugin spelling unless an
    // unscoped one is registered as well; bare [[optimize]] is refused below.
    static constexpr Spelling kSpellings[] = {{clang::ParsedAttr::AS_CXX11, "stark::optimize"},
                                              {clang::ParsedAttr::AS_CXX11, "optimize"}};
    Spellings = kSpellings;
  }

  bool diagAppertainsToDecl(clang::Sema&, const clang::ParsedAttr&, const clang::Decl*) const override {
    return true;  // any declaration: a misplaced annotation gets STARK's own error later
  }

  AttrHandling handleDeclAttribute(clang::Sema& sema, clang::Decl* decl, const clang::ParsedAttr& attr) const override {
    const clang::IdentifierInfo* scope = attr.getScopeName();
    if (!scope || scope->getName() != "stark") return NotHandled;
    llvm::SmallVector<clang::Expr*, 4> args;
    for (unsigned i = 0; i < attr.getNumArgs(); ++i)
      if (attr.isArgExpr(i)) args.push_back(attr.getArgAsExpr(i));
    decl->addAttr(clang::AnnotateAttr::Create(sema.Context, kAnnotation, args.data(), args.size(), attr.getRange()));
    return AttributeApplied;
  }
};

}  // namespace

void register_stark_attribute() {
  static clang::ParsedAttrInfoRegistry::Add<StarkOptimizeAttrInfo> registered(
      "stark-optimize", "[[stark::optimize]]: marks a CUDA kernel for STARK");
  (void)registered;
}

const clang::AnnotateAttr* own_stark_annotation(const clang::Decl* d) {
  for (const auto* a : d->specific_attrs<clang::AnnotateAttr>())
    if (a->getAnnotation() == kAnnotation && !a->isInherited()) return a;
  return nullptr;
}

bool has_stark_annotation(const clang::Decl* d) {
  for (const clang::Decl* r : d->redecls())
    for (const auto* a : r->specific_attrs<clang::AnnotateAttr>())
      if (a->getAnnotation() == kAnnotation) return true;
  return false;
}

}  // namespace stark
