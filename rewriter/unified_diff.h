// Unified diffs of changed files, in the form `git apply` and `patch -p1`
// take from the source root. The edit script comes from dtl (libdtl-dev);
// hunks (3 lines of context) are assembled here.
#ifndef STARK_REWRITER_UNIFIED_DIFF_H
#define STARK_REWRITER_UNIFIED_DIFF_H

#include <string>
#include <string_view>

namespace stark::rewriter {

/// The diff of one file: "diff --git a/P b/P", "--- a/P", "+++ b/P", then
/// the hunks; a last line without a newline is marked as git marks it.
/// Empty when `before` == `after`.
std::string unified_diff(std::string_view path, std::string_view before, std::string_view after);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_UNIFIED_DIFF_H
