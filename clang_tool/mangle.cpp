#include "clang_tool/mangle.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/GlobalDecl.h>
#include <clang/AST/Mangle.h>

namespace stark {

KernelMangler::KernelMangler(clang::ASTContext& context) : mangler_(context.createMangleContext()) {}

KernelMangler::~KernelMangler() = default;

std::string KernelMangler::device_name(const clang::FunctionDecl* fd) const {
  if (!mangler_->shouldMangleDeclName(fd)) return fd->getNameAsString();
  std::string out;
  llvm::raw_string_ostream os(out);
  mangler_->mangleName(clang::GlobalDecl(fd, clang::KernelReferenceKind::Kernel), os);
  return os.str();
}

std::string KernelMangler::variable_name(const clang::VarDecl* vd) const {
  if (!mangler_->shouldMangleDeclName(vd)) return vd->getNameAsString();
  std::string out;
  llvm::raw_string_ostream os(out);
  mangler_->mangleName(clang::GlobalDecl(vd), os);
  return os.str();
}

}  // namespace stark
