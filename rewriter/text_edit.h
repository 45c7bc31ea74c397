// Span splicing: replacing byte ranges of a file's original content. Every
// edit STARK makes to a user's source is one of these, addressed in bytes of
// the content the scan saw, so edits never shift each other.
#ifndef STARK_REWRITER_TEXT_EDIT_H
#define STARK_REWRITER_TEXT_EDIT_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace stark::rewriter {

/// Replace bytes [begin, end) of the original with `text` (begin == end: insert).
struct TextEdit {
  int64_t begin = 0;
  int64_t end = 0;
  std::string text;
  std::string what;  // for error messages: "kernel saxpy", "launch at src/a.cu:12"
  bool operator==(const TextEdit&) const = default;
};

/// Applies every edit to `original`. Errors when an edit lies outside the
/// content or two edits overlap (an insertion at the start of a replaced
/// range is not an overlap: it goes first).
Expected<std::string> apply_edits(std::string_view original, std::vector<TextEdit> edits);

/// Checks a byte range a manifest gives (`field` names it in the error, e.g.
/// "launch config_range") against a file of `size` bytes: 0 <= begin <= end
/// <= size. A manifest is hostile input: every range goes through this (or
/// apply_edits) before it indexes a file.
Expected<void> check_range(std::string_view field, int64_t begin, int64_t end, size_t size);

/// 1-based line of a byte offset (for messages).
int line_of(std::string_view content, int64_t offset);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_TEXT_EDIT_H
