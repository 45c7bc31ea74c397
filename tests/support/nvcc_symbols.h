// Test support: the kernel symbols nvcc really produces for a translation
// unit, read the way docs/machine-facts.md describes (nvcc -cubin, then readelf -sW).
#ifndef STARK_TESTS_SUPPORT_NVCC_SYMBOLS_H
#define STARK_TESTS_SUPPORT_NVCC_SYMBOLS_H

#include <set>
#include <string>

#include "core/manifest.h"

namespace stark::testing {

/// FUNC symbols of the sm_90 cubin nvcc builds from the command's unit
/// (the command's own flags, with -c/-o/dependency flags and its
/// --generate-code list replaced by -cubin -arch=sm_90). Fails the current
/// test when nvcc or readelf fails.
std::set<std::string> nvcc_kernel_symbols(const CompileCommand& command);

}  // namespace stark::testing

#endif  // STARK_TESTS_SUPPORT_NVCC_SYMBOLS_H
