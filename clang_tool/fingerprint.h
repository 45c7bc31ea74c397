// The fingerprint of a kernel: one hash of everything the compiler reads to
// build it. Two scans give the same fingerprint exactly when the
// kernel's meaning cannot have changed, so the result cache keys on it.
//
// What goes in: the kernel's text and, transitively, the text of every
// function it calls (constructors, operators and conversions included), every
// type it names (records, enums, typedefs, with their fields' and bases'
// types), every global it reads (__constant__, __device__, constexpr), the
// template arguments of every instantiation, and the macros expanded and
// preprocessor conditions tested inside all of that text (macro_log.h).
// Declarations in the CUDA toolkit's and clang's own headers are keyed by the
// toolkit's identity instead. Where the walk cannot be sure it saw
// everything (a virtual call, a template kernel never instantiated, a
// declaration split across files, text the host-side parse skipped such as
// an #ifdef __CUDA_ARCH__ branch), the hash of every project file of the
// unit goes in too: never too little.
// Internal to clang_tool (its .cpp files include clang headers).
#ifndef STARK_CLANG_TOOL_FINGERPRINT_H
#define STARK_CLANG_TOOL_FINGERPRINT_H

#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace stark {

class MacroLog;
class ToolchainFiles;

/// Fingerprints the kernels of one parsed unit; remembers the unit-wide
/// fallback hash once computed.
class KernelFingerprinter {
 public:
  KernelFingerprinter(clang::ASTContext& context, const MacroLog& macros, const ToolchainFiles& toolchain);
  ~KernelFingerprinter();

  /// "xxh64:..." of the kernel (its pattern, for a template) and all it
  /// depends on; `extra` (the instantiations' device names) is hashed with it.
  std::string fingerprint(const clang::FunctionDecl* kernel, const std::vector<std::string>& extra) const;

  struct Impl;  // the parse's context, shared with the walk in fingerprint.cpp

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace stark

#endif  // STARK_CLANG_TOOL_FINGERPRINT_H
