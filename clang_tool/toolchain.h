// Where the clang front end finds its builtin headers and STARK's stubs,
// for a development build, an installed package and the relocatable bundle.
#ifndef STARK_CLANG_TOOL_TOOLCHAIN_H
#define STARK_CLANG_TOOL_TOOLCHAIN_H

#include <filesystem>
#include <string>

#include "clang_tool/nvcc_args.h"
#include "core/expected.h"

namespace stark {

/// Resolves the clang resource directory (with its cuda_wrappers) and the
/// stub headers, in this order: $STARK_CLANG_RESOURCE_DIR / $STARK_STUB_DIR;
/// beside the executable (<prefix>/lib/stark/clang, <prefix>/share/stark/clang-stubs);
/// the paths this binary was built with. Errors say what is missing where.
Expected<ClangSetup> locate_clang_setup();

/// "19.1.7": the clang version linked in.
std::string clang_version();

}  // namespace stark

#endif  // STARK_CLANG_TOOL_TOOLCHAIN_H
