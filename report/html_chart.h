// Runtime per attempt of one kernel, drawn as an inline SVG chart for the
// HTML report.
#ifndef STARK_REPORT_HTML_CHART_H
#define STARK_REPORT_HTML_CHART_H

#include <string>

#include "core/result.h"
#include "report/search_tree.h"

namespace stark::report {

/// One mark per attempt in search order: accepted attempts at their time,
/// failed ones as crosses in a band above the plot; the original's time as a
/// dashed line and the best time so far as a step line. Marks carry data-k
/// and data-node like the tree's nodes. Empty string when there are no attempts.
std::string runtime_chart_svg(const KernelResult& k, const TreeView& view, int kernel_index);

/// 1, 2 or 5 times a power of ten: at least `max`, in about `ticks` steps.
double nice_step(double max, int ticks);

}  // namespace stark::report

#endif  // STARK_REPORT_HTML_CHART_H
