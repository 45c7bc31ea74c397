// Where a kernel's name is used other than to launch it: the scan warns and
// keeps such a kernel's launch as it is (Kernel::fixed_launch), since the
// launch that follows a function pointer, a dispatch table or a launch
// helper is out of its sight.
#ifndef STARK_CLANG_TOOL_KERNEL_REFERENCES_H
#define STARK_CLANG_TOOL_KERNEL_REFERENCES_H

#include <vector>

namespace clang {
class ASTContext;
class DeclRefExpr;
class InitListExpr;
}  // namespace clang

namespace stark {

/// True when `ref` (to a kernel) lets the kernel's address go somewhere:
/// false when it is what a launch calls (`k<<<...>>>`, `cudaLaunchKernel(k,
/// ...)`) or what a CUDA runtime call reads (`cudaFuncSetAttribute(k, ...)`,
/// `cudaOccupancy...(..., k, ...)`).
bool address_escapes(const clang::DeclRefExpr& ref, clang::ASTContext& ctx);

/// The names an initializer list holds. The syntactic form, which a
/// RecursiveASTVisitor walks, keeps a template's overloaded name unresolved
/// (`{kernel<T, 128>, ...}` in a function template); the semantic form has
/// the functions it names. An initializer is never a launch.
std::vector<clang::DeclRefExpr*> names_initialized(clang::InitListExpr* list);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_KERNEL_REFERENCES_H
