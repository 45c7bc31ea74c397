// Which flags of a compile command STARK did not write may reach nvcc. A
// compile command read from a result, a manifest or a build folder a result
// names is hostile: `-ccbin`, `-Xcompiler -wrapper,...`, `-Xcompiler -B`,
// `--options-file`, `-MF` and their kind run a program or write a file of the
// attacker's choosing. So flags pass an allowlist (docs/apply.md, "The
// compile check"): what changes how the unit preprocesses and compiles
// (macros, include folders, language standard, optimisation, warnings, a
// few host code-generation flags); never a program, a plugin or an output.
#ifndef STARK_CORE_NVCC_FLAGS_H
#define STARK_CORE_NVCC_FLAGS_H

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace stark {

/// How long one nvcc run may take before STARK stops it: a compiler that
/// hangs (a stuck license or file lock, a runaway template) must fail one
/// compile, not hang `stark apply` or a search. Real units take seconds.
inline constexpr std::chrono::seconds kNvccTimeout{600};

/// The flags that passed, and those left out.
struct NvccFlags {
  /// In order; each value joined to its option ("-isystem=/x",
  /// "-Xcompiler=-fPIC,-O2"), so no value can be read as an option.
  std::vector<std::string> kept;
  /// Left out because they could run or write something, or are unknown
  /// (outputs, archs and link options STARK sets itself are left out silently).
  std::vector<std::string> dropped;
};

/// Maps a path value (of -I, -isystem, -include...) to the path to pass.
using PathMap = std::function<std::string(const std::string&)>;

/// Filters `args`: an nvcc command line without its compiler (and launcher),
/// options files already expanded, the source file removed.
NvccFlags allowed_nvcc_flags(const std::vector<std::string>& args, const PathMap& map_path);

/// The options file `args[i]` names (--options-file F, -optf F, the "="
/// forms, @F), moving `i` past a separate value; empty when it names none.
std::string options_file_at(const std::vector<std::string>& args, size_t& i);

/// True for an arch as the compile check passes it to -arch=sm_XX ("90", "100a").
bool valid_sm(const std::string& sm);

}  // namespace stark

#endif  // STARK_CORE_NVCC_FLAGS_H
