// HTML for code in the HTML report: escaping, CUDA/C++ syntax colouring and
// unified diffs with added, removed and hunk lines marked.
#ifndef STARK_REPORT_HTML_CODE_H
#define STARK_REPORT_HTML_CODE_H

#include <string>
#include <string_view>

namespace stark::report {

/// Escapes & < > " ' for text and attribute values.
std::string html_escape(std::string_view s);

/// Colours CUDA/C++ source as <span class="tok-..."> runs (keyword, type,
/// number, string, comment, preprocessor); the text itself is escaped.
/// `in_comment` carries an open block comment from one line to the next.
std::string highlight_cuda_line(std::string_view line, bool& in_comment);

/// A unified diff as one <pre> of lines: added, removed, hunk headers and
/// file headers each get a class; code in +/-/context lines is coloured.
std::string diff_html(std::string_view diff);

}  // namespace stark::report

#endif  // STARK_REPORT_HTML_CODE_H
