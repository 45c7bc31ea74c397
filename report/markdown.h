// The Markdown report: a pull-request comment a reviewer reads in a minute.
#ifndef STARK_REPORT_MARKDOWN_H
#define STARK_REPORT_MARKDOWN_H

#include <cstddef>
#include <string>

#include "report/report_input.h"

namespace stark::report {

/// Marks STARK's comment so a workflow can find and update it.
inline constexpr const char* kMarkdownMarker = "<!-- stark-report -->";

struct MarkdownOptions {
  std::string generator = "STARK";  // e.g. "stark 0.1.0", named in the footer
  /// GitHub rejects comments above 65536 characters: the largest diffs are
  /// left out (with a note) until the comment fits.
  size_t max_chars = 60000;
};

/// A summary table of every kernel, a section per improved kernel (checks,
/// checks that could not run, assumptions, launch change, folded diff), and
/// one line per kernel that did not improve.
std::string render_markdown(const ReportInput& in, const MarkdownOptions& options = {});

}  // namespace stark::report

#endif  // STARK_REPORT_MARKDOWN_H
