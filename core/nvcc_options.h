// nvcc's command-line grammar, as far as STARK reads compile commands:
// which options take a value, which may then be the next argument ("-I
// dir", "-ftz true", "-Werror all-warnings", "-rdc true"). Every reader of
// a compile command (the flag allowlist, the candidate's nvcc command,
// clang's view of the unit) asks this one table, so none takes a flag's
// neighbour for its value or a value for an option.
#ifndef STARK_CORE_NVCC_OPTIONS_H
#define STARK_CORE_NVCC_OPTIONS_H

#include <string_view>

namespace stark {

/// True for an nvcc option (as spelled before any '=') that takes a value:
/// written without '=', its value is the next argument. Flags (-c, -G,
/// -lineinfo, -use_fast_math, -dlto...) and unknown options are false.
bool nvcc_takes_value(std::string_view option);

}  // namespace stark

#endif  // STARK_CORE_NVCC_OPTIONS_H
