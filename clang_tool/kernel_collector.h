// The AST walk of one parsed unit: annotated kernels, their instantiations,
// launch sites, and annotation errors.
#ifndef STARK_CLANG_TOOL_KERNEL_COLLECTOR_H
#define STARK_CLANG_TOOL_KERNEL_COLLECTOR_H

#include "clang_tool/unit_scan.h"

namespace clang {
class ASTContext;
}

namespace stark {

class KernelFingerprinter;

/// The errors clang reported while parsing the unit (unit.diagnostics holds
/// them, with STARK's own): a kernel is read only when none of them touches it.
struct ParseErrors {
  std::vector<size_t> clang_errors;  // indexes into UnitScan::diagnostics
  bool fatal = false;                // the parse went on without trusting itself
};

/// Fills unit.kernels, unit.launches and annotation diagnostics from a
/// parsed translation unit. When clang reported errors, a kernel whose own
/// declaration and body parsed cleanly is still read (with a warning naming
/// the first error); one that did not is a located error. With a
/// fingerprinter, every kernel gets its fingerprint.
void collect_kernels(clang::ASTContext& context, UnitScan& unit, const KernelFingerprinter* fingerprinter = nullptr,
                     const ParseErrors& errors = {});

}  // namespace stark

#endif  // STARK_CLANG_TOOL_KERNEL_COLLECTOR_H
