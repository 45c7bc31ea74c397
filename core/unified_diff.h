// Unified diffs of two versions of a text file, in the form `git apply` and
// `patch -p1` accept ("--- a/FILE", "+++ b/FILE", "@@ -l,n +l,n @@" hunks).
// The one diff writer: `stark apply`'s patch, the report's diffs and the
// debug role's view of a failed change all come from here, so they agree.
// The edit script comes from dtl (libdtl-dev).
#ifndef STARK_CORE_UNIFIED_DIFF_H
#define STARK_CORE_UNIFIED_DIFF_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stark {

/// A unified diff and how many lines it adds and removes.
struct UnifiedDiff {
  std::string text;  // empty when the two versions are equal
  int added = 0;
  int removed = 0;
};

/// What comes before the "--- a/FILE" line.
enum class DiffHeader {
  Plain,  // nothing
  Git,    // "diff --git a/FILE b/FILE", so a patch of several files reads like git's
};

/// The diff from `before` to `after` of the file at `path` (relative, '/'
/// separated), with `context` unchanged lines around each change. A last line
/// without a newline is marked "\ No newline at end of file", as git does.
UnifiedDiff unified_diff(std::string_view path, std::string_view before, std::string_view after, int context = 3,
                         DiffHeader header = DiffHeader::Plain);

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

}  // namespace stark

#endif  // STARK_CORE_UNIFIED_DIFF_H
