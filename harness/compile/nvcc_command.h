// Turning a kernel's own nvcc command (manifest "compile") into the command
// that compiles a candidate: same flags, defines and include paths, but one
// -arch=sm_XX for the GPU being measured, -cubin (or -c for the host-code
// check), our output file, and every path inside the source root moved into
// the shadow tree that holds the patched file.
#ifndef STARK_HARNESS_COMPILE_NVCC_COMMAND_H
#define STARK_HARNESS_COMPILE_NVCC_COMMAND_H

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"

namespace stark::harness {

/// Keep the order: CompileStats indexes its counters by it.
enum class CompileMode {
  Cubin,         // nvcc -cubin: device code only, what the worker loads
  Object,        // nvcc -c: host and device code, for the host-code check
  Dependencies,  // nvcc -M: the files the translation unit reads
  Ptx,           // nvcc -ptx: the device assembly, to check what code a rewrite made
};

struct NvccCommandSpec {
  std::string sm;                          // "90"
  CompileMode mode = CompileMode::Cubin;
  std::filesystem::path output;            // -o (stdout for Dependencies when empty)
  std::filesystem::path source_root;       // paths below it are mapped...
  std::filesystem::path shadow_root;       // ...to the same place below this (empty: no mapping)
  std::string nvcc;                        // used when the command's compiler is not nvcc by path
  std::filesystem::path dependency_file;   // Cubin/Object: also write make-style deps here (-MD -MF)
};

/// The rewritten argv (argv[0] = nvcc). Errors: relocatable device code
/// (-rdc=true, -dc) which a single cubin cannot hold, a compiler that is not
/// nvcc, an options file that cannot be read, no source file in the command.
Expected<std::vector<std::string>> nvcc_command(const CompileCommand& command, const NvccCommandSpec& spec);

/// Parses a make-style dependency file ("out: a.cu b.h \\\n c.h").
std::vector<std::string> parse_make_deps(const std::string& text);

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMPILE_NVCC_COMMAND_H
