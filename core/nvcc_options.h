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

/// True for an option with a value that says what nvcc writes, where, and
/// for which GPUs (-o, -MF, -odir, -arch, -gencode...): STARK sets these
/// itself for every compile, so a project's own never pass on.
bool nvcc_output_option(std::string_view option);

/// True for a flag that says what nvcc produces (-c, -MD, -M, -ptx,
/// -cubin...): STARK chooses that itself, so a project's own never pass on.
bool nvcc_output_flag(std::string_view flag);

}  // namespace stark

#endif  // STARK_CORE_NVCC_OPTIONS_H
