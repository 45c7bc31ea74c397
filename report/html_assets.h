// The style sheet and script inlined into every HTML report (no network:
// the page must render from a single file, e.g. a CI artifact).
#ifndef STARK_REPORT_HTML_ASSETS_H
#define STARK_REPORT_HTML_ASSETS_H

namespace stark::report {

extern const char* const kHtmlStyle;
/// Reads the JSON in <script id="stark-data">, wires node selection in the
/// tree and the chart, selects each kernel's best node, and finally sets
/// data-stark-ready="yes" on <html> (the rendering test waits for it).
extern const char* const kHtmlScript;

}  // namespace stark::report

#endif  // STARK_REPORT_HTML_ASSETS_H
