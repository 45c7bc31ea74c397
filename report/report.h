// `stark report`: one entry point over the four renderers.
#ifndef STARK_REPORT_REPORT_H
#define STARK_REPORT_REPORT_H

#include <optional>
#include <string>
#include <string_view>

#include "report/report_input.h"

namespace stark::report {

enum class Format { Markdown, Html, Sarif, Json };

/// "md" (or "markdown"), "html", "sarif", "json".
std::optional<Format> parse_format(std::string_view name);

/// Who wrote the report, named in every format.
struct RenderOptions {
  std::string version = "0.0.0";  // the stark version
};

/// The report text in one format (JSON formats end with a newline).
std::string render(const ReportInput& in, Format format, const RenderOptions& options = {});

}  // namespace stark::report

#endif  // STARK_REPORT_REPORT_H
