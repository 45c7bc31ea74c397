// The byte ranges a manifest gives, checked against the file they address
// before any edit (core/text_edit.h) uses them, and where they lie.
#ifndef STARK_REWRITER_TEXT_EDIT_H
#define STARK_REWRITER_TEXT_EDIT_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "core/text_edit.h"

namespace stark::rewriter {

/// Checks a byte range a manifest gives (`field` names it in the error, e.g.
/// "launch config_range") against a file of `size` bytes: 0 <= begin <= end
/// <= size. A manifest is hostile input: every range goes through this (or
/// apply_edits) before it indexes a file.
Expected<void> check_range(std::string_view field, int64_t begin, int64_t end, size_t size);

/// 1-based line of a byte offset (for messages).
int line_of(std::string_view content, int64_t offset);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_TEXT_EDIT_H
