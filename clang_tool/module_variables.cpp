#include "clang_tool/module_variables.h"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <set>

#include "clang_tool/mangle.h"

namespace stark {

namespace {

using namespace clang;

constexpr size_t kMaxFunctions = 4000;

/// threadIdx, blockIdx...: clang declares them as __device__ variables of
/// __cuda_builtin_*_t types; no module holds them.
bool is_builtin_variable(const VarDecl* v) {
  const auto* record = v->getType()->getAsCXXRecordDecl();
  return record && record->getName().starts_with("__cuda_builtin_");
}

bool is_module_variable(const VarDecl* v) {
  return v->hasGlobalStorage() && !v->isStaticLocal() && !v->hasAttr<CUDASharedAttr>() &&
         (v->hasAttr<CUDADeviceAttr>() || v->hasAttr<CUDAConstantAttr>() || v->hasAttr<HIPManagedAttr>()) &&
         !is_builtin_variable(v);
}

/// The call graph below a kernel, body by body.
class Walk : public RecursiveASTVisitor<Walk> {
 public:
  explicit Walk(const KernelMangler& mangler) : mangler_(mangler) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }  // constructors, default arguments

  void add(const FunctionDecl* fd) {
    if (fd && seen_.insert(fd->getCanonicalDecl()).second) pending_.push_back(fd);
  }

  /// Walks every function reached; false when it cannot be sure.
  bool run() {
    while (!pending_.empty() && sure_) {
      const FunctionDecl* fd = pending_.back();
      pending_.pop_back();
      if (seen_.size() > kMaxFunctions) unsure("more functions than the walk follows");
      const FunctionDecl* def = fd->getDefinition();
      if (fd->isDefaulted() || fd->isTrivial()) continue;  // compiler-made: nothing of the program's
      if (!def || !def->hasBody()) {
        // Device library functions (libdevice, builtins) hold no module
        // variable of the program; a project function defined elsewhere may.
        const SourceManager& sm = fd->getASTContext().getSourceManager();
        if (!fd->getBuiltinID() && !sm.isInSystemHeader(sm.getExpansionLoc(fd->getLocation())))
          unsure("'" + fd->getQualifiedNameAsString() + "' is defined in another unit");
        continue;
      }
      TraverseStmt(def->getBody());
      if (const auto* ctor = dyn_cast<CXXConstructorDecl>(def))
        for (const CXXCtorInitializer* init : ctor->inits()) TraverseStmt(init->getInit());
    }
    return sure_;
  }

  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    if (const auto* v = dyn_cast<VarDecl>(ref->getDecl()); v && is_module_variable(v))
      names_.insert(mangler_.variable_name(v->getDefinition() ? v->getDefinition() : v));
    if (const auto* f = dyn_cast<FunctionDecl>(ref->getDecl())) add(f);
    return true;
  }
  bool VisitMemberExpr(MemberExpr* member) {
    if (const auto* v = dyn_cast<VarDecl>(member->getMemberDecl()); v && is_module_variable(v))
      names_.insert(mangler_.variable_name(v));
    if (const auto* f = dyn_cast<FunctionDecl>(member->getMemberDecl())) {
      if (const auto* m = dyn_cast<CXXMethodDecl>(f); m && m->isVirtual())
        unsure("a virtual call of '" + m->getQualifiedNameAsString() + "'");
      add(f);
    }
    return true;
  }
  bool VisitCallExpr(CallExpr* call) {
    if (call->getDirectCallee() || isa<CXXPseudoDestructorExpr>(call->getCallee()->IgnoreParenImpCasts())) return true;
    unsure("a call through a pointer");  // its target is not in the code
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr* construct) {
    add(construct->getConstructor());
    return true;
  }

  std::vector<std::string> names() const { return {names_.begin(), names_.end()}; }
  const std::string& why() const { return why_; }

 private:
  const KernelMangler& mangler_;
  std::set<const FunctionDecl*> seen_;
  std::vector<const FunctionDecl*> pending_;
  void unsure(std::string why) {
    if (sure_) why_ = std::move(why);
    sure_ = false;
  }

  std::set<std::string> names_;
  bool sure_ = true;
  std::string why_;
};

}  // namespace

std::optional<std::vector<std::string>> module_variables(const FunctionDecl* kernel, const KernelMangler& mangler,
                                                         std::string* why_unsure) {
  Walk walk(mangler);
  if (const FunctionTemplateDecl* t = kernel->getDescribedFunctionTemplate()) {
    bool any = false;
    for (const FunctionDecl* spec : t->specializations()) {
      walk.add(spec);
      any = true;
    }
    if (!any) {  // only the pattern: what it names depends on T
      if (why_unsure) *why_unsure = "a template no unit instantiates";
      return std::nullopt;
    }
  } else {
    walk.add(kernel);
  }
  if (!walk.run()) {
    if (why_unsure) *why_unsure = walk.why();
    return std::nullopt;
  }
  return walk.names();
}

}  // namespace stark
