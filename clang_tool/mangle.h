// Device symbol names of kernels, as nvcc, readelf and CUPTI report them.
#ifndef STARK_CLANG_TOOL_MANGLE_H
#define STARK_CLANG_TOOL_MANGLE_H

#include <memory>
#include <string>

namespace clang {
class ASTContext;
class FunctionDecl;
class MangleContext;
class VarDecl;
}  // namespace clang

namespace stark {

/// Mangles kernels for the device side, also during a host-side parse:
/// GlobalDecl(fd, KernelReferenceKind::Kernel), not the host stub's name
/// (docs/machine-facts.md). extern "C" kernels keep their plain name.
class KernelMangler {
 public:
  explicit KernelMangler(clang::ASTContext& context);
  ~KernelMangler();
  std::string device_name(const clang::FunctionDecl* kernel) const;
  /// A module variable's name in the cubin, as cuModuleGetGlobal takes it.
  std::string variable_name(const clang::VarDecl* variable) const;

 private:
  std::unique_ptr<clang::MangleContext> mangler_;
};

}  // namespace stark

#endif  // STARK_CLANG_TOOL_MANGLE_H
