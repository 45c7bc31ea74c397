// A result folder is untrusted input: before `stark apply` plans, writes or
// compiles anything, every variant it would splice passes the variant check
// again (docs/apply.md, "Checked again").
#ifndef STARK_REWRITER_VARIANT_RECHECK_H
#define STARK_REWRITER_VARIANT_RECHECK_H

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "core/result.h"
#include "core/variant_validator.h"

namespace stark::rewriter {

/// Makes the variant check over a manifest's sources (the CLI: the clang check).
using ValidatorFactory = std::function<std::unique_ptr<VariantValidator>(const Manifest&)>;

/// `manifest` with each kernel's compile command replaced by the local
/// build's command for the same unit (from `database`): the variant check
/// parses with the local flags, never with a command the result names. A
/// kernel whose unit the local build does not compile keeps the manifest's
/// flags (read as data: the parse runs no program). Either way the parse
/// takes the local toolkit's CUDA headers, not a path the command names.
Manifest with_local_commands(Manifest manifest, const std::vector<CompileCommand>& database);

/// Checks the best variant of every improved kernel in `only` (empty: all)
/// that the manifest knows. The first one refused is the Error, naming the
/// kernel and every reason on one line.
Expected<void> recheck_variants(const Result& result, const Manifest& manifest, const std::vector<std::string>& only,
                                VariantValidator& validator);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_VARIANT_RECHECK_H
