// Which module variables (__device__, __constant__, __managed__) a kernel
// can reach. The capture records those and no others: a unit's headers
// (cooperative groups, libcu++) bring variables of their own that the
// driver cannot read, and they must not cost the kernel its captures.
// Includes no clang header; for clang_tool's own files.
#ifndef STARK_CLANG_TOOL_MODULE_VARIABLES_H
#define STARK_CLANG_TOOL_MODULE_VARIABLES_H

#include <optional>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
}

namespace stark {

class KernelMangler;

/// The cubin names of the variables the kernel (every instantiation of a
/// template) reads or writes, through its body and every function it calls,
/// sorted; nullopt when the walk cannot be sure: a virtual call, a call
/// through a pointer, a project function defined in another unit, a
/// template no unit instantiates, or more functions than it walks
/// (`why_unsure` says which).
std::optional<std::vector<std::string>> module_variables(const clang::FunctionDecl* kernel,
                                                         const KernelMangler& mangler,
                                                         std::string* why_unsure = nullptr);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_MODULE_VARIABLES_H
