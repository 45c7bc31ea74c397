// The command the compile check runs for one translation unit. A result, its
// manifest and a build folder a result names are hostile, so the program is
// always the local toolkit's nvcc (never argv[0], -ccbin or a wrapper from a
// command line), the unit's flags pass allowed_nvcc_flags, and options files
// are read only from inside the build folder.
#ifndef STARK_REWRITER_CHECK_COMMAND_H
#define STARK_REWRITER_CHECK_COMMAND_H

#include <filesystem>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "rewriter/compile_check.h"

namespace stark::rewriter {

/// What the compile check runs, chosen on this machine.
struct CheckToolchain {
  std::filesystem::path nvcc;          // the local toolkit's, e.g. /usr/local/cuda/bin/nvcc
  std::string host_compiler;           // -ccbin, only from a build the user named (empty: nvcc's default)
  std::filesystem::path options_root;  // the build folder: options files are read only from inside it
};

/// Takes nvcc and the host compiler from BUILD/CMakeCache.txt
/// (CMAKE_CUDA_COMPILER, CMAKE_CUDA_HOST_COMPILER) into `toolchain`, for a
/// build the user named (`-p`): never for a build folder a result names. A
/// compiler that is not an nvcc on this machine is ignored.
void use_cmake_cache(const std::filesystem::path& build_dir, CheckToolchain& toolchain);

/// The argv that compiles `unit` (an entry of the local compile database)
/// for sm_`sm` into the object `output`, every path inside `source_root`
/// mapped into `tree`. An Error for a unit not compiled by nvcc, an arch that
/// is not a number, a command that does not name its source file.
Expected<CheckCommand> check_command(const CompileCommand& unit, const std::string& sm,
                                     const std::filesystem::path& output, const std::filesystem::path& source_root,
                                     const std::filesystem::path& tree, const CheckToolchain& toolchain);

/// check_command bound to `toolchain`, for ApplyRequest::builder.
CommandBuilder check_command_builder(CheckToolchain toolchain);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_CHECK_COMMAND_H
