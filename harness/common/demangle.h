// A mangled C++ name as people read it, for messages that name a kernel
// instantiation or a host symbol.
#ifndef STARK_HARNESS_COMMON_DEMANGLE_H
#define STARK_HARNESS_COMMON_DEMANGLE_H

#include <string>

namespace stark::harness {

/// `relu<double>(int, double const*, double*)` for `_Z4reluIdEviPKT_PS0_`;
/// the name itself when it is not a mangled one.
std::string demangle(const std::string& mangled);

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMMON_DEMANGLE_H
