#include "report/html_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "report/format.h"
#include "report/html_code.h"

namespace stark::report {

namespace {

// Drawn left to right: depth along x, the layout's slots along y, so deep
// searches (one long improving chain) stay short on the page.
constexpr double kSlot = 38, kLevel = 58, kMargin = 20, kRadius = 10;

double px(const PlacedNode& n) { return kMargin + kRadius + n.depth * kLevel; }
double py(const PlacedNode& n) { return kMargin + n.x * kSlot + kRadius; }

std::string tooltip(const TreeNode& n, std::optional<double> baseline) {
  std::string t = fmt::format("#{} {} — {}", n.id, to_string(n.role), n.status);
  if (n.time_us) {
    t += " — " + format_time_us(n.time_us);
    if (baseline && *n.time_us > 0) t += " (" + format_speedup(*baseline / *n.time_us) + ")";
  }
  if (!n.strategy.empty()) t += "\n" + n.strategy;
  if (n.grounding != Grounding::None) t += "\n" + grounding_text(n.grounding);
  if (!n.diagnostics.empty()) t += "\n" + n.diagnostics.substr(0, std::min<size_t>(n.diagnostics.find('\n'), 160));
  return t;
}

}  // namespace

std::string status_class(NodeStatus status) { return std::string("st-") + to_string(status); }

std::string tree_svg(const TreeView& view, const KernelResult& k, int kernel_index) {
  double width = std::max(2 * kMargin + view.max_depth * kLevel + 2 * kRadius + 16, 240.0);
  double height = 2 * kMargin + std::max(view.width - 1, 0.0) * kSlot + 2 * kRadius + 14;
  std::string svg = fmt::format(
      "<svg class=\"tree\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" role=\"img\" aria-label=\"search tree of {2} nodes\">",
      width, height, view.nodes.size());
  std::optional<double> baseline = k.baseline_us;
  if (!baseline && !view.nodes.empty() && !view.nodes.front().node.parent) baseline = view.nodes.front().node.time_us;

  // Edges first (under the nodes); best-path edges last so they sit on top.
  std::string edges, best_edges;
  for (const auto& n : view.nodes) {
    for (int c : n.children) {
      const PlacedNode* child = view.find(c);
      if (!child) continue;
      double x1 = px(n) + kRadius, y1 = py(n), x2 = px(*child) - kRadius, y2 = py(*child), xm = (x1 + x2) / 2;
      bool best = n.on_best_path && child->on_best_path;
      (best ? best_edges : edges) +=
          fmt::format("<path class=\"edge{}\" d=\"M{:.1f},{:.1f} C{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\"/>",
                      best ? " best" : "", x1, y1, xm, y1, xm, y2, x2, y2);
    }
  }
  svg += edges + best_edges;

  for (const auto& n : view.nodes) {
    const TreeNode& t = n.node;
    std::string cls = "node " + (t.parent ? status_class(t.status) : std::string("st-root"));
    if (n.on_best_path) cls += " best";
    if (view.best && *view.best == t.id) cls += " winner";
    svg += fmt::format(
        "<g class=\"{}\" data-k=\"{}\" data-node=\"{}\" transform=\"translate({:.1f},{:.1f})\" "
        "tabindex=\"0\">",
        cls, kernel_index, t.id, px(n), py(n));
    svg += "<title>" + html_escape(tooltip(t, baseline)) + "</title>";
    if (view.best && *view.best == t.id) svg += fmt::format("<circle class=\"ring\" r=\"{:.0f}\"/>", kRadius + 4);
    svg += fmt::format("<circle r=\"{:.0f}\"/><text class=\"id\" dy=\"0.35em\">{}</text>", kRadius, t.id);
    if (!t.parent && t.time_us)
      svg += fmt::format("<text class=\"label\" dy=\"{:.0f}\">{}</text>", kRadius + 11,
                         html_escape(format_time_us(t.time_us)));
    else if (t.parent && is_accepted(t) && baseline && *t.time_us > 0)
      svg += fmt::format("<text class=\"label\" dy=\"{:.0f}\">{}</text>", kRadius + 11,
                         html_escape(format_speedup(*baseline / *t.time_us)));
    svg += "</g>";
  }
  return svg + "</svg>";
}

}  // namespace stark::report
