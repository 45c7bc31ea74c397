// The lexical half of the variant check: rules on a candidate's text alone,
// checked with clang's raw lexer before anything parses or compiles it.
//
// A variant is the kernel and its __device__ helpers, nothing else. Its text
// may hold no preprocessor directive but the loop pragmas (`#pragma unroll`,
// `#pragma unroll N` or `(expr)`, `#pragma nounroll`), no `_Pragma` but the
// same, and never name `__CUDA_ARCH__` (or its `__CUDA_ARCH_*` family): then
// nvcc's host and device passes, and the clang parse that checks the variant,
// all see the same tokens, and nothing in the variant can read a file, define
// a macro, or hide code from the check.
#ifndef STARK_CLANG_TOOL_VARIANT_TEXT_H
#define STARK_CLANG_TOOL_VARIANT_TEXT_H

#include <string_view>

#include "core/expected.h"

namespace stark {

/// Ok, or why `source` is not a variant's text (one reason a line, with the
/// variant line it is on). `following`: the file's text right after the
/// kernel's range (a line of it is enough); no comment or literal of the
/// variant may run into it.
Expected<void> check_variant_text(std::string_view source, std::string_view following = {});

/// True when `text` starts with a loop pragma the variant rules allow:
/// `#pragma unroll ...`, `#pragma nounroll`, or `_Pragma("unroll ...")`.
/// The variant check asks it of every pragma the parse meets inside the
/// variant, so a project macro that expands to another pragma is refused.
bool starts_with_loop_pragma(std::string_view text);

}  // namespace stark

#endif  // STARK_CLANG_TOOL_VARIANT_TEXT_H
