// The search tree of one kernel drawn as inline SVG for the HTML report.
#ifndef STARK_REPORT_HTML_TREE_H
#define STARK_REPORT_HTML_TREE_H

#include <string>

#include "core/result.h"
#include "report/search_tree.h"

namespace stark::report {

/// CSS class of a node status: "st-accepted", "st-compile_error"... (other
/// characters dropped, so any status string is a safe class name).
std::string status_class(NodeStatus status);

/// Nodes coloured by status (st-* classes), edges and nodes of the best path
/// marked "best", the winner ringed, accepted nodes labelled with their
/// speedup over the root. Every node carries data-k (kernel index) and
/// data-node (node id) so the page script can select it.
std::string tree_svg(const TreeView& view, const KernelResult& k, int kernel_index);

}  // namespace stark::report

#endif  // STARK_REPORT_HTML_TREE_H
