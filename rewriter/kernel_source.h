// The new text of an improved kernel: the variant's source in place of the
// kernel's manifest range, with the [[stark::optimize]] annotation kept, and
// a short comment above it saying it was generated, how much faster it was
// measured, on which GPU, and how to reproduce it.
#ifndef STARK_REWRITER_KERNEL_SOURCE_H
#define STARK_REWRITER_KERNEL_SOURCE_H

#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "core/result.h"
#include "rewriter/text_edit.h"

namespace stark::rewriter {

/// The variant's source, with the annotation of `original` (the text of the
/// kernel's range) put back in front of its declaration when the variant left
/// it out. An Error when it must be put back but the variant has no
/// `__global__` declaration to put it on.
Expected<std::string> with_annotation(std::string_view original, std::string_view variant_source);

/// The provenance comment, one "// ..." line per entry, each starting with
/// `indent` and ending in a newline.
std::string provenance_comment(const Result& result, const KernelResult& kernel_result, const Kernel& kernel,
                               std::string_view indent);

/// The edits of one improved kernel in its file (`content`): the comment
/// inserted at the start of the line where the range begins, and the range
/// replaced by the variant's source (annotation kept).
Expected<std::vector<TextEdit>> kernel_edits(const Result& result, const KernelResult& kernel_result,
                                             const Kernel& kernel, std::string_view content);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_KERNEL_SOURCE_H
