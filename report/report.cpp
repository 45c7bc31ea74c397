#include "report/report.h"

#include <nlohmann/json.hpp>

#include "report/html.h"
#include "report/json_report.h"
#include "report/markdown.h"
#include "report/sarif.h"

namespace stark::report {

std::optional<Format> parse_format(std::string_view name) {
  if (name == "md" || name == "markdown") return Format::Markdown;
  if (name == "html") return Format::Html;
  if (name == "sarif") return Format::Sarif;
  if (name == "json") return Format::Json;
  return std::nullopt;
}

std::string render(const ReportInput& in, Format format, const RenderOptions& options) {
  std::string generator = "stark " + options.version;
  switch (format) {
    case Format::Markdown: return render_markdown(in, {generator});
    case Format::Html: return render_html(in, {generator});
    case Format::Sarif: return render_sarif(in, {options.version}).dump(2) + "\n";
    case Format::Json: return render_json(in, generator).dump(2) + "\n";
  }
  return {};
}

}  // namespace stark::report
