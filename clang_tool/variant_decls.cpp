#include "clang_tool/variant_decls.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclFriend.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "clang_tool/clang_errors.h"
#include "clang_tool/mangle.h"
#include "clang_tool/variant_text.h"

namespace stark {

namespace {

using namespace clang;

/// Attributes that run code when the program loads or exits, or place, keep
/// or rename symbols: none of them belongs to a kernel's helpers.
const char* loader_attribute(const Decl* d) {
  for (const Attr* a : d->attrs()) switch (a->getKind()) {
      case attr::Constructor:
      case attr::Destructor:
      case attr::InitPriority:
      case attr::InitSeg:
      case attr::Section:
      case attr::CodeSeg:
      case attr::Used:
      case attr::Retain:
      case attr::Alias:
      case attr::IFunc:
      case attr::Weak:
      case attr::WeakRef:
      case attr::AsmLabel: return a->getSpelling();
      default: break;
    }
  return nullptr;
}

/// Device-side launches and runtime calls inside the variant's functions.
class BodyCheck : public RecursiveASTVisitor<BodyCheck> {
 public:
  explicit BodyCheck(VariantScope& scope) : scope_(scope) {}
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr*) {
    scope_.problems.push_back("the variant launches a kernel from device code: work would escape the timed region");
    return true;
  }
  bool VisitCallExpr(CallExpr* call) {
    if (const FunctionDecl* f = call->getDirectCallee(); f && f->getIdentifier()) {
      StringRef n = f->getName();
      if (n.starts_with("cudaLaunch") || n == "cudaGraphLaunch" || n.starts_with("cudaStream") ||
          n.starts_with("cudaMalloc") || n.starts_with("cudaMemcpy"))
        scope_.problems.push_back(fmt::format("the variant calls '{}' from device code", n.str()));
    }
    return true;
  }

 private:
  VariantScope& scope_;
};

/// The kernel itself (any of its declarations or instantiations).
bool is_kernel(const Decl* d, const Kernel& kernel) {
  const FunctionDecl* fd = d->getAsFunction();
  return fd && fd->hasAttr<CUDAGlobalAttr>() && fd->getNameAsString() == kernel.name;
}

/// Uses of the variant's declarations in the code after it. A helper, type
/// or constant the rest of the file would pick up (a name that now hides
/// another) changes code the search never measured.
class OutsideUse : public RecursiveASTVisitor<OutsideUse> {
 public:
  OutsideUse(VariantScope& scope, const SourceManager& sm, const Kernel& kernel, std::set<const Decl*>& reported)
      : scope_(scope), sm_(sm), kernel_(kernel), reported_(reported) {}

  bool VisitDeclRefExpr(DeclRefExpr* e) { return note(e->getDecl(), e->getLocation()); }
  bool VisitOverloadExpr(OverloadExpr* e) {
    for (const NamedDecl* d : e->decls()) note(d->getUnderlyingDecl(), e->getNameLoc());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc tl) { return note(tl.getTypedefNameDecl(), tl.getBeginLoc()); }
  bool VisitTagTypeLoc(TagTypeLoc tl) { return note(tl.getDecl(), tl.getBeginLoc()); }
  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc tl) {
    return note(tl.getTypePtr()->getTemplateName().getAsTemplateDecl(), tl.getBeginLoc());
  }

 private:
  bool note(const Decl* d, SourceLocation use) {
    if (!d || !scope_.patch.contains(sm_, d->getLocation()) || is_kernel(d, kernel_)) return true;
    if (!reported_.insert(d->getCanonicalDecl()).second) return true;
    PresumedLoc at = sm_.getPresumedLoc(sm_.getExpansionLoc(use));
    std::string where = at.isValid() ? fmt::format(" (line {} of {})", at.getLine(),
                                                   std::filesystem::path(at.getFilename()).filename().string())
                                     : "";
    const auto* named = dyn_cast<NamedDecl>(d);
    scope_.problems.push_back(fmt::format(
        "the code after the kernel would use the variant's '{}'{}: a variant's helpers are for its kernel only "
        "(rename it)",
        named ? named->getNameAsString() : "declaration", where));
    return true;
  }

  VariantScope& scope_;
  const SourceManager& sm_;
  const Kernel& kernel_;
  std::set<const Decl*>& reported_;
};

class DeclCheck : public ASTConsumer {
 public:
  DeclCheck(VariantScope& scope, const Kernel& kernel) : scope_(scope), kernel_(kernel) {}

  void HandleTranslationUnit(ASTContext& ctx) override {
    const SourceManager& sm = ctx.getSourceManager();
    auto file = sm.getFileManager().getOptionalFileRef(scope_.patch.file.string());
    scope_.file_parsed = file && sm.translateFile(*file).isValid();
    // Errors elsewhere in the unit can be its own (host code only clang
    // rejects): the walk goes on, and parse_patched says whose they are.
    ctx_ = &ctx;
    mangler_ = std::make_unique<KernelMangler>(ctx);
    walk(ctx.getTranslationUnitDecl());
  }

 private:
  bool in_scope(const Decl* d) const { return scope_.patch.contains(ctx_->getSourceManager(), d->getLocation()); }
  void problem(std::string message) { scope_.problems.push_back(std::move(message)); }

  /// True when d is a redeclaration of something declared outside the variant.
  bool redeclares_outside(const Decl* d) const {
    return std::any_of(d->redecls_begin(), d->redecls_end(), [&](const Decl* r) { return !in_scope(r); });
  }
  void refuse_outside(const NamedDecl* d) {
    problem(
        fmt::format("the variant defines '{}', which is declared outside the kernel: a variant may add only new "
                    "helpers",
                    d->getQualifiedNameAsString()));
  }

  /// The unit's declarations in order: the variant's are checked, and those
  /// after it searched for uses of the variant's names.
  void walk(const DeclContext* dc) {
    for (const Decl* d : dc->decls()) {
      if (d->isImplicit()) continue;
      if (in_scope(d)) {
        after_variant_ = true;
        classify(d);
      } else if (isa<NamespaceDecl>(d) || isa<LinkageSpecDecl>(d)) {
        walk(cast<DeclContext>(d));
      } else if (after_variant_) {
        OutsideUse(scope_, ctx_->getSourceManager(), kernel_, reported_).TraverseDecl(const_cast<Decl*>(d));
      }
    }
  }

  /// A declaration at namespace scope inside the variant.
  void classify(const Decl* d) {
    if (const char* a = loader_attribute(d)) return refuse_attribute(d, a);
    if (isa<NamespaceDecl>(d) || isa<LinkageSpecDecl>(d)) return walk(cast<DeclContext>(d));
    if (isa<FileScopeAsmDecl>(d))
      return problem(
          "the variant has file-scope asm: a variant is the kernel and its "
          "__device__ helpers only");
    if (isa<UsingDirectiveDecl>(d) || isa<UsingDecl>(d) || isa<UsingEnumDecl>(d) || isa<NamespaceAliasDecl>(d))
      return problem(
          "a using-declaration, using-directive or namespace alias at namespace scope would change name "
          "lookup in the code after the kernel: put it inside the kernel or a helper");
    if (isa<FunctionDecl>(d) || isa<FunctionTemplateDecl>(d)) return classify_function(d->getAsFunction());
    if (isa<VarDecl>(d) || isa<VarTemplateDecl>(d)) return classify_variable(d);
    if (isa<CXXRecordDecl>(d) || isa<ClassTemplateDecl>(d)) return classify_record(d);
    if (isa<TypeDecl>(d) || isa<TypeAliasTemplateDecl>(d) || isa<StaticAssertDecl>(d) || isa<EmptyDecl>(d) ||
        isa<UsingShadowDecl>(d))
      return;
    problem(fmt::format("unsupported declaration in the variant ({})", d->getDeclKindName()));
  }

  void refuse_attribute(const Decl* d, const char* attribute) {
    const auto* named = dyn_cast<NamedDecl>(d);
    problem(
        fmt::format("'{}' carries the attribute '{}': it would run code when the program loads or exits, or "
                    "place or rename a symbol; a variant may not",
                    named ? named->getNameAsString() : "a declaration", attribute));
  }

  void classify_function(const FunctionDecl* fd) {
    std::string name = fd->getNameAsString();
    if (fd->hasAttr<CUDAGlobalAttr>()) return classify_kernel(fd);
    const FunctionTemplateDecl* primary = fd->getPrimaryTemplate();
    if (redeclares_outside(fd) || (primary && !in_scope(primary))) return refuse_outside(fd);
    if (isa<CXXMethodDecl>(fd)) return classify_method(fd);
    bool device_only = fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAHostAttr>();
    if (!device_only)
      return problem(fmt::format(
          "'{}' is host code: a variant may add only __device__ helpers (host code never runs while searching)", name));
    if (fd->isExternallyVisible())
      return problem(fmt::format(
          "device helper '{}' must be static (or in an anonymous namespace) so it cannot collide with the file's "
          "names",
          name));
    check_body(fd);
  }

  void classify_kernel(const FunctionDecl* fd) {
    std::string name = fd->getNameAsString();
    if (name != kernel_.name || !fd->isThisDeclarationADefinition())
      return problem(fmt::format("the variant adds the kernel '{}': it may only replace '{}'", name, kernel_.name));
    if (parsed_with_errors(fd)) return;  // its errors refuse the variant; nothing to mangle
    scope_.kernel_found = true;
    if (const FunctionTemplateDecl* t = fd->getDescribedFunctionTemplate())
      for (const FunctionDecl* spec : t->specializations()) scope_.kernel_symbols.insert(mangler_->device_name(spec));
    else scope_.kernel_symbols.insert(mangler_->device_name(fd));
    check_body(fd);
  }

  /// A member function of a type the variant defines: device code, or no
  /// code at all (defaulted, deleted). __host__ __device__ is allowed: no
  /// host code can reach the variant's types (see OutsideUse).
  void classify_method(const FunctionDecl* fd) {
    if (fd->isDefaulted() || fd->isDeleted()) return;
    if (!fd->hasAttr<CUDADeviceAttr>())
      return problem(
          fmt::format("'{}' is host code: a type the variant defines may have only __device__ member "
                      "functions",
                      fd->getQualifiedNameAsString()));
    check_body(fd);
  }

  /// Launches and runtime calls in a body, and the local types it defines.
  void check_body(const FunctionDecl* fd) {
    BodyCheck(scope_).TraverseDecl(const_cast<FunctionDecl*>(fd));
    for (const Decl* local : fd->decls()) {
      if (const char* a = loader_attribute(local)) refuse_attribute(local, a);
      else if (isa<CXXRecordDecl>(local) || isa<ClassTemplateDecl>(local)) classify_record(local);
    }
  }

  void classify_record(const Decl* d) {
    const auto* rd = dyn_cast<CXXRecordDecl>(d);
    if (const auto* t = dyn_cast<ClassTemplateDecl>(d)) rd = t->getTemplatedDecl();
    const auto* spec = dyn_cast<ClassTemplateSpecializationDecl>(rd);
    if ((spec && !in_scope(spec->getSpecializedTemplate())) || redeclares_outside(rd)) return refuse_outside(rd);
    if (!rd->isThisDeclarationADefinition()) return;
    for (const Decl* m : rd->decls()) {
      if (m->isImplicit()) continue;
      if (const char* a = loader_attribute(m)) {
        refuse_attribute(m, a);
      } else if (const auto* f = dyn_cast<FriendDecl>(m)) {
        const NamedDecl* fr = f->getFriendDecl();
        if (const FunctionDecl* fd = fr ? fr->getAsFunction() : nullptr) classify_function(fd);
      } else if (isa<FunctionDecl>(m) || isa<FunctionTemplateDecl>(m)) {
        classify_method(m->getAsFunction());
      } else if (isa<VarDecl>(m) || isa<VarTemplateDecl>(m)) {
        classify_variable(m);
      } else if (isa<CXXRecordDecl>(m) || isa<ClassTemplateDecl>(m)) {
        classify_record(m);
      }
    }
  }

  /// Data with static storage: device data private to the file, or host
  /// constants whose value the compiler knows, with no code to run at start
  /// or exit.
  void classify_variable(const Decl* d) {
    const auto* vd = dyn_cast<VarDecl>(d);
    if (const auto* t = dyn_cast<VarTemplateDecl>(d)) vd = t->getTemplatedDecl();
    const auto* spec = dyn_cast<VarTemplateSpecializationDecl>(vd);
    if ((spec && !in_scope(spec->getSpecializedTemplate())) || redeclares_outside(vd)) return refuse_outside(vd);
    std::string name = vd->getNameAsString();
    bool device = vd->hasAttr<CUDADeviceAttr>() || vd->hasAttr<CUDAConstantAttr>() || vd->hasAttr<CUDASharedAttr>();
    if (device) {
      if (vd->isExternallyVisible())
        problem(
            fmt::format("variable '{}' is visible outside the file (make it static): a variant may add only static "
                        "__device__/__constant__ data or constants",
                        name));
      return;
    }
    std::string why;
    if (!vd->isConstexpr() && !vd->getType().isConstant(*ctx_))
      why = "is host data: a variant may add only static __device__/__constant__ data or constants";
    else if (!vd->isConstexpr() && (vd->isStaticDataMember() || vd->isTemplated()))
      why = "must be constexpr: a const static member or variable template may be initialised at run time";
    else if (!vd->isConstexpr() && vd->getInit() && !vd->hasConstantInitialization())
      why = "has a dynamic initialiser: it would run code when the program starts (make it constexpr)";
    else if (vd->needsDestruction(*ctx_) != QualType::DK_none)
      why = "has a destructor: it would run code when the program exits";
    else if (const CXXRecordDecl* rd = vd->getType()->getAsCXXRecordDecl(); rd && rd->isLambda())
      why = "holds a lambda at namespace scope: put the lambda inside the kernel or a helper";
    if (!why.empty()) problem(fmt::format("variable '{}' {}", name, why));
  }

  VariantScope& scope_;
  const Kernel& kernel_;
  ASTContext* ctx_ = nullptr;
  std::unique_ptr<KernelMangler> mangler_;
  bool after_variant_ = false;
  std::set<const Decl*> reported_;
};

/// Every pragma the parse meets inside the variant, written there or made
/// by a project macro the variant expands: only the loop pragmas.
class PragmaCheck : public PPCallbacks {
 public:
  PragmaCheck(SourceManager& sm, VariantScope& scope) : sm_(sm), scope_(scope) {}

  void PragmaDirective(SourceLocation loc, PragmaIntroducerKind) override {
    int64_t offset = scope_.patch.offset(sm_, loc);
    if (offset < 0) return;
    auto [file, at] = sm_.getDecomposedLoc(sm_.getSpellingLoc(loc));
    bool invalid = false;
    StringRef buffer = sm_.getBufferData(file, &invalid);
    if (!invalid && starts_with_loop_pragma(std::string_view(buffer.data() + at, buffer.size() - at))) return;
    const std::string& text = scope_.patch.text;
    auto from = text.begin() + scope_.patch.begin;
    scope_.problems.push_back(
        fmt::format("variant line {}: a macro expands to a pragma other than #pragma unroll: not "
                    "allowed in a variant",
                    1 + std::count(from, from + offset, '\n')));
  }

 private:
  SourceManager& sm_;
  VariantScope& scope_;
};

}  // namespace

std::unique_ptr<ASTConsumer> make_variant_decl_check(VariantScope& scope, const Kernel& kernel) {
  return std::make_unique<DeclCheck>(scope, kernel);
}

std::unique_ptr<PPCallbacks> make_variant_pragma_check(SourceManager& sm, VariantScope& scope) {
  return std::make_unique<PragmaCheck>(sm, scope);
}

}  // namespace stark
