// Light-weight reading of C++ source text around the spans the manifest
// names: where comments and literals are, the annotation inside a kernel's
// range, the kernel expression of a launch. The manifest gives exact byte
// ranges; these helpers only look a few tokens around them.
#ifndef STARK_REWRITER_SOURCE_SCAN_H
#define STARK_REWRITER_SOURCE_SCAN_H

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace stark::rewriter {

/// A byte span [begin, end) inside some text.
struct Span {
  size_t begin = 0;
  size_t end = 0;
  bool operator==(const Span&) const = default;
};

/// `text` with the inside of comments, string and character literals blanked
/// (newlines kept), so searches for code never match inside them.
std::string code_mask(std::string_view text);

/// The STARK annotation in `text`: `STARK_OPTIMIZE(...)`,
/// `[[stark::optimize...]]`, `[[clang::annotate("stark::optimize"...)]]` or
/// `__attribute__((annotate("stark::optimize"...)))`.
std::optional<Span> find_annotation(std::string_view text);

/// Where the annotation goes back into a kernel's source: before the
/// declaration specifiers that precede the first `__global__` (after any
/// template header). nullopt when there is no `__global__` in the text.
std::optional<size_t> annotation_insert_point(std::string_view text);

/// The kernel expression before a chevron's `<<<` at `chevron`:
/// `saxpy`, `detail::scale<T, 4>`, `(*ptr)`.
std::optional<Span> chevron_callee(std::string_view text, size_t chevron);

/// For a runtime-API call whose argument starting at `arg_begin` is not the
/// first: the span of the call's first argument (the kernel for
/// cudaLaunchKernel) and the name of the function called.
struct CallHead {
  Span first_argument;
  std::string function;
};
std::optional<CallHead> call_head_before(std::string_view text, size_t arg_begin);

/// From just after an argument (at `pos`): the offset of the next argument's
/// separating ',' (depth 0) or of the call's closing ')'; nullopt otherwise.
std::optional<size_t> next_separator(std::string_view text, size_t pos);

/// Offset of the first byte of the line holding `pos`.
size_t line_start(std::string_view text, size_t pos);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_SOURCE_SCAN_H
