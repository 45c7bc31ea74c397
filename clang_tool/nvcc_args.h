// Turning an nvcc command line into the clang driver command that parses the
// same translation unit (host side), and reading the GPU archs it targets.
// docs/machine-facts.md lists the quirks this handles. No clang headers here.
#ifndef STARK_CLANG_TOOL_NVCC_ARGS_H
#define STARK_CLANG_TOOL_NVCC_ARGS_H

#include <filesystem>
#include <string>
#include <vector>

#include "core/manifest.h"

namespace stark {

/// Where clang finds what it needs to parse CUDA 13 code.
struct ClangSetup {
  std::filesystem::path resource_dir;  // clang's builtin headers (with cuda_wrappers)
  std::filesystem::path stub_dir;      // headers CUDA 13 dropped that clang 19 includes, and the compat header
};

/// In stub_dir: what nvcc's headers give host code and clang's do not
/// (host min/max); every parse includes it first.
inline constexpr const char* kNvccCompatHeader = "stark_nvcc_compat.h";

/// The real-architecture numbers ("90", "80", "100a") the command compiles for,
/// from -arch, -gencode, --generate-code and --gpu-architecture; CMake's
/// CUDA 13 default ("75") when none is given.
std::vector<std::string> archs_of(const std::vector<std::string>& nvcc_args);

/// The CUDA toolkit an nvcc command uses: the folder above bin/nvcc when the
/// command names it by path, else $CUDA_HOME, $CUDA_PATH, /usr/local/cuda.
std::filesystem::path cuda_path_of(const std::vector<std::string>& nvcc_args);

/// The clang arguments (argv[0] first, the file last) for a host-side
/// syntax-only parse of the command's translation unit.
std::vector<std::string> clang_arguments(const CompileCommand& command, const ClangSetup& setup);

/// The sm_XX clang 19 can parse for the given archs (sm_100 and newer map to sm_90).
std::string clang_gpu_arch(const std::vector<std::string>& archs);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_NVCC_ARGS_H
