// Span splicing: replacing byte ranges of a text's original content. Every
// change STARK makes to source (a strategy's rewrite of a kernel, the patch
// `stark apply` writes) is a list of these, addressed in bytes of the content
// as it was read, so edits never shift each other.
#ifndef STARK_CORE_TEXT_EDIT_H
#define STARK_CORE_TEXT_EDIT_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace stark {

/// Replace bytes [begin, end) of the original with `text` (begin == end: insert).
struct TextEdit {
  int64_t begin = 0;
  int64_t end = 0;
  std::string text;
  std::string what;  // for error messages: "kernel saxpy", "launch at src/a.cu:12"
  bool operator==(const TextEdit&) const = default;
};

/// Applies every edit to `original`, in any order given. Errors when an edit
/// lies outside the content or two edits overlap (an insertion at the start
/// of a replaced range is not an overlap: it goes first; insertions at one
/// offset keep their given order).
Expected<std::string> apply_edits(std::string_view original, std::vector<TextEdit> edits);

}  // namespace stark

#endif  // STARK_CORE_TEXT_EDIT_H
