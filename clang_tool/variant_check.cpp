#include "clang_tool/variant_check.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <fmt/format.h>

#include <set>

#include "clang_tool/mangle.h"
#include "clang_tool/patched_unit.h"
#include "core/launch_override_check.h"
#include "core/paths.h"

namespace stark {

namespace fs = std::filesystem;

namespace {

using namespace clang;

/// Headers a variant may include besides the project's and the toolkit's:
/// freestanding ones that declare constants and math, nothing that runs.
const std::set<std::string, std::less<>> kFreestanding = {
    "cstdint", "stdint.h", "cstddef", "stddef.h", "cfloat", "float.h", "climits", "limits.h",
    "cmath",   "math.h",   "limits",  "type_traits", "utility"};

/// Where the variant sits in the patched file, and what was found there.
struct Scope {
  PatchedSource patch;
  fs::path root, cuda;
  std::vector<std::string> problems;
  std::set<std::string> kernel_symbols;
  bool kernel_found = false;
};

class IncludeCheck : public PPCallbacks {
 public:
  IncludeCheck(SourceManager& sm, Scope& scope) : sm_(sm), scope_(scope) {}

  void InclusionDirective(SourceLocation hash, const Token&, StringRef name, bool, CharSourceRange,
                          OptionalFileEntryRef file, StringRef, StringRef, const Module*, bool,
                          SrcMgr::CharacteristicKind) override {
    if (!scope_.patch.contains(sm_, hash)) return;
    if (kFreestanding.count(name.str())) return;
    if (file) {
      fs::path p = absolute_normal(std::string(file->getName()));
      if (is_within(p, scope_.root) || is_within(p, scope_.cuda)) return;
    }
    scope_.problems.push_back(fmt::format(
        "the variant includes <{}>: only headers of the project, of the CUDA toolkit and freestanding ones "
        "(cstdint, cfloat, climits, cmath, ...) are allowed",
        name.str()));
  }

 private:
  SourceManager& sm_;
  Scope& scope_;
};

/// Device-side launches and runtime calls inside the variant's functions.
class BodyCheck : public RecursiveASTVisitor<BodyCheck> {
 public:
  explicit BodyCheck(Scope& scope) : scope_(scope) {}
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
  Scope& scope_;
};

class DeclCheck : public ASTConsumer {
 public:
  DeclCheck(Scope& scope, const Kernel& kernel) : scope_(scope), kernel_(kernel) {}

  void HandleTranslationUnit(ASTContext& ctx) override {
    if (ctx.getDiagnostics().hasErrorOccurred()) return;
    ctx_ = &ctx;
    mangler_ = std::make_unique<KernelMangler>(ctx);
    walk(ctx.getTranslationUnitDecl());
  }

 private:
  bool in_scope(const Decl* d) const { return scope_.patch.contains(ctx_->getSourceManager(), d->getLocation()); }

  void walk(const DeclContext* dc) {
    for (const Decl* d : dc->decls()) {
      if (d->isImplicit()) continue;
      if (isa<NamespaceDecl>(d) || isa<LinkageSpecDecl>(d)) {
        walk(cast<DeclContext>(d));
        continue;
      }
      if (in_scope(d)) classify(d);
    }
  }

  void classify(const Decl* d) {
    const FunctionDecl* fd = dyn_cast<FunctionDecl>(d);
    if (const auto* ftd = dyn_cast<FunctionTemplateDecl>(d)) fd = ftd->getTemplatedDecl();
    if (fd) return classify_function(fd);
    if (const auto* vd = dyn_cast<VarDecl>(d)) {
      bool device = vd->hasAttr<CUDADeviceAttr>() || vd->hasAttr<CUDAConstantAttr>();
      bool constant = vd->isConstexpr() || vd->getType().isConstQualified();
      if ((device || constant) && !vd->isExternallyVisible()) return;
      if (constant && vd->isExternallyVisible() && !device) return;  // a const at namespace scope is internal in C++
      scope_.problems.push_back(fmt::format(
          "variable '{}' is {}: a variant may add only static __device__/__constant__ data or constants",
          vd->getNameAsString(), device ? "visible outside the file (make it static)" : "host data"));
      return;
    }
    if (isa<TypeDecl>(d) || isa<TypedefNameDecl>(d) || isa<ClassTemplateDecl>(d) || isa<TypeAliasTemplateDecl>(d) ||
        isa<UsingDecl>(d) || isa<UsingDirectiveDecl>(d) || isa<StaticAssertDecl>(d) || isa<EmptyDecl>(d) ||
        isa<UsingShadowDecl>(d))
      return;
    scope_.problems.push_back(fmt::format("unsupported declaration in the variant ({})", d->getDeclKindName()));
  }

  void classify_function(const FunctionDecl* fd) {
    std::string name = fd->getNameAsString();
    if (fd->hasAttr<CUDAGlobalAttr>()) {
      if (name != kernel_.name || !fd->isThisDeclarationADefinition()) {
        scope_.problems.push_back(fmt::format("the variant adds the kernel '{}': it may only replace '{}'", name,
                                              kernel_.name));
        return;
      }
      scope_.kernel_found = true;
      if (const FunctionTemplateDecl* t = fd->getDescribedFunctionTemplate())
        for (const FunctionDecl* spec : t->specializations()) scope_.kernel_symbols.insert(mangler_->device_name(spec));
      else
        scope_.kernel_symbols.insert(mangler_->device_name(fd));
      BodyCheck(scope_).TraverseDecl(const_cast<FunctionDecl*>(fd));
      return;
    }
    bool device_only = fd->hasAttr<CUDADeviceAttr>() && !fd->hasAttr<CUDAHostAttr>();
    if (!device_only) {
      scope_.problems.push_back(fmt::format(
          "'{}' is host code: a variant may add only __device__ helpers (host code never runs while searching)", name));
      return;
    }
    if (fd->isExternallyVisible()) {
      scope_.problems.push_back(fmt::format(
          "device helper '{}' must be static (or in an anonymous namespace) so it cannot collide with the file's "
          "names",
          name));
      return;
    }
    BodyCheck(scope_).TraverseDecl(const_cast<FunctionDecl*>(fd));
  }

  Scope& scope_;
  const Kernel& kernel_;
  ASTContext* ctx_ = nullptr;
  std::unique_ptr<KernelMangler> mangler_;
};

}  // namespace

ClangVariantValidator::ClangVariantValidator(ClangSetup setup, fs::path source_root)
    : setup_(std::move(setup)), root_(absolute_normal(source_root)) {}

Expected<void> ClangVariantValidator::validate(const Kernel& kernel, const Variant& variant) {
  if (!kernel.compile) return Error{fmt::format("kernel '{}' has no compile command in the manifest", kernel.id)};
  if (auto ok = check_launch_override(kernel, variant.launch); !ok) return ok;
  auto patch = patch_kernel_file(kernel, variant.source, root_);
  if (!patch) return patch.error();

  Scope scope;
  scope.patch = std::move(*patch);
  scope.root = root_;
  scope.cuda = absolute_normal(cuda_path_of(kernel.compile->arguments));
  auto errors = parse_patched(kernel, scope.patch, setup_, [&](CompilerInstance& ci) {
    ci.getPreprocessor().addPPCallbacks(std::make_unique<IncludeCheck>(ci.getSourceManager(), scope));
    return std::make_unique<DeclCheck>(scope, kernel);
  });

  // What the checks found comes first: a forbidden include can be the reason the rest fails to parse.
  std::vector<std::string> lines = scope.problems;
  if (!errors.empty()) {
    lines.push_back("the variant does not parse:");
    for (size_t i = 0; i < errors.size() && i < 10; ++i) lines.push_back(scope.patch.describe(errors[i]));
  }
  if (!lines.empty()) return Error{fmt::format("{}", fmt::join(lines, "\n"))};
  if (!scope.kernel_found)
    return Error{fmt::format("the variant does not define the kernel '{}'", kernel.name)};
  std::set<std::string> known;
  for (const auto& inst : kernel.instantiations) known.insert(inst.mangled);
  for (const auto& symbol : scope.kernel_symbols)
    if (!known.count(symbol))
      return Error{fmt::format(
          "the variant changes the kernel's signature: its symbol would be '{}', not one of the original's ({}); "
          "keep every parameter type as it is (adding __restrict__ is fine, adding const to a pointee is not)",
          symbol, fmt::join(known, ", "))};
  if (scope.kernel_symbols.empty() && !kernel.instantiations.empty())
    return Error{fmt::format("the variant of '{}' is never instantiated in {}", kernel.name,
                             fs::path(kernel.compile->file).filename().string())};
  return {};
}

}  // namespace stark
