// Unified diffs of two versions of a text file, in the form `git apply` and
// `patch -p1` accept ("--- a/FILE", "+++ b/FILE", "@@ -l,n +l,n @@" hunks).
#ifndef STARK_REPORT_UNIFIED_DIFF_H
#define STARK_REPORT_UNIFIED_DIFF_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stark::report {

/// A unified diff and how many lines it adds and removes.
struct UnifiedDiff {
  std::string text;  // empty when the two versions are equal
  int added = 0;
  int removed = 0;
};

/// The diff from `before` to `after` of the file at `path` (relative, '/'
/// separated), with `context` unchanged lines around each change. A last line
/// without a newline is marked "\ No newline at end of file", as git does.
UnifiedDiff unified_diff(std::string_view path, std::string_view before, std::string_view after, int context = 3);

/// One block of changed lines: bytes [begin, end) of `before` become `text`.
struct ChangedSpan {
  int64_t begin = 0;
  int64_t end = 0;
  std::string text;
  bool operator==(const ChangedSpan&) const = default;
};

/// The blocks of whole lines that differ between two versions, as byte
/// replacements of `before` (for turning a rewritten file into edits).
std::vector<ChangedSpan> changed_spans(std::string_view before, std::string_view after);

}  // namespace stark::report

#endif  // STARK_REPORT_UNIFIED_DIFF_H
