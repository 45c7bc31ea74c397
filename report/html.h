// The HTML report: one self-contained page (inline CSS, SVG and script, no
// network) with the summary, and per kernel its checks, the search tree, the
// runtime of every attempt and the winning diff.
#ifndef STARK_REPORT_HTML_H
#define STARK_REPORT_HTML_H

#include <string>

#include "report/report_input.h"

namespace stark::report {

struct HtmlOptions {
  std::string generator = "STARK";  // e.g. "stark 0.1.0", named in the footer
};

std::string render_html(const ReportInput& in, const HtmlOptions& options = {});

}  // namespace stark::report

#endif  // STARK_REPORT_HTML_H
