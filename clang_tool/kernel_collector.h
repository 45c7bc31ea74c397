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

/// Fills unit.kernels, unit.launches and annotation diagnostics from a
/// parsed translation unit (which must have parsed without errors). With a
/// fingerprinter, every kernel gets its fingerprint.
void collect_kernels(clang::ASTContext& context, UnitScan& unit, const KernelFingerprinter* fingerprinter = nullptr);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_KERNEL_COLLECTOR_H
