// Turning a kernel's own nvcc command (manifest "compile") into the command
// that compiles a candidate: same flags, defines and include paths, but one
// -arch=sm_XX for the GPU being measured, -cubin (or -c for the host-code
// check), our output file, and every path inside the source root moved into
// the shadow tree that holds the patched file. Relocatable device code is
// then device-linked with the target's other objects.
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
  std::string sm;  // "90"
  CompileMode mode = CompileMode::Cubin;
  std::filesystem::path output;           // -o (stdout for Dependencies when empty)
  std::filesystem::path source_root;      // paths below it are mapped...
  std::filesystem::path shadow_root;      // ...to the same place below this (empty: no mapping)
  std::string nvcc;                       // used when the command's compiler is not nvcc by path
  std::filesystem::path dependency_file;  // Cubin/Object: also write make-style deps here (-MD -MF)
};

/// The rewritten argv (argv[0] = nvcc). Relocatable device code stays
/// relocatable (`-dc` becomes `-rdc=true`): its cubin needs a device link
/// (device_link_command) before a worker can load it. Errors:
/// `-ewp`, a compiler that is not nvcc, an options file that cannot be read,
/// no source file in the command.
Expected<std::vector<std::string>> nvcc_command(const CompileCommand& command, const NvccCommandSpec& spec);

/// True when the command compiles relocatable device code (-rdc=true, -dc):
/// the unit may call device functions and use variables of other units.
bool is_relocatable(const CompileCommand& command);

/// The other objects of the unit's build target, which its relocatable
/// device code is linked with: every *.o beside the unit's own output (its
/// -o) under the target's object folder (CMake's CMakeFiles/<target>.dir),
/// without the unit's own object and CMake's device-link output. Sorted;
/// empty when the command names no output there.
std::vector<std::filesystem::path> device_link_objects(const CompileCommand& command);

/// `nvcc -dlink -cubin -arch=sm_XX cubin objects... -o output`: a cubin a
/// worker can load, with what the unit uses from the other objects.
std::vector<std::string> device_link_command(const std::string& nvcc, const std::string& sm,
                                             const std::filesystem::path& cubin,
                                             const std::vector<std::filesystem::path>& objects,
                                             const std::filesystem::path& output);

/// Parses a make-style dependency file ("out: a.cu b.h \\\n c.h").
std::vector<std::string> parse_make_deps(const std::string& text);

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMPILE_NVCC_COMMAND_H
