// What parsing one translation unit yields, before units are merged into a
// manifest. Paths here are absolute; ids are assigned at merge time once the
// source root is known. No clang headers here.
#ifndef STARK_CLANG_TOOL_UNIT_SCAN_H
#define STARK_CLANG_TOOL_UNIT_SCAN_H

#include <string>
#include <vector>

#include "clang_tool/nvcc_args.h"
#include "core/diagnostic.h"
#include "core/manifest.h"

namespace stark {

/// An annotated kernel definition seen in one unit.
struct UnitKernel {
  std::string key;        // clang USR of the kernel (its template pattern): equal across units
  std::string signature;  // "(int, const float *)": appended to the id when overloaded
  bool overloaded = false;
  Kernel kernel;  // file absolute, id and compile unset
};

/// A launch of an annotated kernel seen in one unit.
struct UnitLaunch {
  std::string key;  // USR of the launched kernel
  Launch launch;    // file absolute
};

struct UnitScan {
  std::string file;  // the unit's main file
  std::vector<UnitKernel> kernels;
  std::vector<UnitLaunch> launches;
  std::vector<Diagnostic> diagnostics;  // file absolute
  /// Marked kernels this unit declares but does not define: their key (as
  /// UnitKernel::key) and the warning to give if no scanned unit defines them.
  std::vector<std::pair<std::string, Diagnostic>> declared_only;
  /// Where a marked kernel's address is taken (UnitKernel::key, and the
  /// warning to give once per kernel): launches there cannot be rewritten.
  std::vector<std::pair<std::string, Diagnostic>> address_uses;
  std::string cuda_wrappers;  // the cuda_wrappers folder clang read, empty if none
  double seconds = 0;         // wall time of the parse
};

/// Parses one CUDA translation unit (host side) and collects its annotated
/// kernels, their instantiations and launch sites. Parse errors come back as
/// diagnostics, never as an exception: clang's errors in code the kernels do
/// not depend on as warnings (the build compiled the unit), a kernel they
/// touch as a located error.
UnitScan scan_unit(const CompileCommand& command, const ClangSetup& setup);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_UNIT_SCAN_H
