#include "report/html_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/format.h"
#include "report/html_code.h"
#include "report/html_tree.h"

namespace stark::report {

namespace {

constexpr double kW = 560, kH = 250, kLeft = 62, kRight = 18, kTop = 40, kBottom = 36;

/// A tick label: "0", "500 µs", "2.5 ms", "10 ms" (no trailing zeros).
std::string tick_label(double us) {
  if (us == 0) return "0";
  std::string unit = " µs";
  if (us >= 1e6) {
    us /= 1e6;
    unit = " s";
  } else if (us >= 1e3) {
    us /= 1e3;
    unit = " ms";
  }
  std::string v = fmt::format("{:.3g}", us);
  return v + unit;
}

}  // namespace

double nice_step(double max, int ticks) {
  if (max <= 0) return 1;
  double raw = max / ticks;
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

std::string runtime_chart_svg(const KernelResult& k, const TreeView& view, int kernel_index) {
  auto attempts = attempts_in_order(k);
  if (attempts.empty()) return "";
  std::optional<double> baseline = k.baseline_us;
  if (!baseline)
    for (const auto& n : view.nodes)
      if (!n.node.parent && n.node.time_us) baseline = n.node.time_us;
  double top = baseline.value_or(0);
  for (const auto* a : attempts)
    if (is_accepted(*a)) top = std::max(top, *a->time_us);
  if (top <= 0) top = 1;
  double step = nice_step(top * 1.05, 5);
  double ymax = std::ceil(top * 1.05 / step) * step;
  double plot_w = kW - kLeft - kRight, plot_h = kH - kTop - kBottom;
  auto X = [&](size_t i) { return kLeft + (i + 0.5) * plot_w / attempts.size(); };
  auto Y = [&](double us) { return kTop + plot_h * (1 - us / ymax); };

  std::string svg = fmt::format(
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" role=\"img\" aria-label=\"runtime per attempt\">",
      kW, kH);
  // Grid and y axis labels.
  for (double v = 0; v <= ymax + step / 2; v += step)
    svg += fmt::format(
        "<line class=\"grid\" x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>"
        "<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" dy=\"0.32em\">{}</text>",
        kLeft, kW - kRight, Y(v), Y(v), kLeft - 6, Y(v), html_escape(tick_label(v)));
  // x ticks: 1, then every 5th attempt.
  for (size_t i = 0; i < attempts.size(); ++i)
    if (i == 0 || (i + 1) % 5 == 0)
      svg += fmt::format("<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>", X(i),
                         kH - kBottom + 16, i + 1);
  svg += fmt::format("<text class=\"axis\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">attempt</text>",
                     kLeft + plot_w / 2, kH - 4);
  // Attempts without a time sit in a band above the plot: crosses for those
  // that failed, open circles for those that compiled with no GPU to time them.
  bool failed = false, untimed = false;
  for (const auto* a : attempts)
    if (!is_accepted(*a)) (a->status == NodeStatus::Untimed ? untimed : failed) = true;
  svg += fmt::format("<text class=\"axis band\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" dy=\"0.32em\">{}</text>",
                     kLeft - 6, kTop - 20,
                     failed && untimed ? "failed · untimed"
                     : untimed         ? "untimed"
                                       : "failed");
  if (baseline)  // labelled in the legend beside the chart, where no mark can cover it
    svg += fmt::format("<line class=\"baseline\" x1=\"{0:.1f}\" x2=\"{1:.1f}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\"/>", kLeft,
                       kW - kRight, Y(*baseline));

  // Best so far: a step line from the original's time down to each new best.
  if (baseline) {
    double best = *baseline;
    std::string points = fmt::format("{:.1f},{:.1f}", kLeft, Y(best));
    for (size_t i = 0; i < attempts.size(); ++i) {
      if (!is_accepted(*attempts[i]) || *attempts[i]->time_us >= best) continue;
      points += fmt::format(" {0:.1f},{1:.1f} {0:.1f},{2:.1f}", X(i), Y(best), Y(*attempts[i]->time_us));
      best = *attempts[i]->time_us;
    }
    points += fmt::format(" {:.1f},{:.1f}", kW - kRight, Y(best));
    svg += "<polyline class=\"best-line\" points=\"" + points + "\"/>";
  }

  for (size_t i = 0; i < attempts.size(); ++i) {
    const TreeNode& n = *attempts[i];
    bool winner = view.best && *view.best == n.id;
    std::string title = fmt::format("attempt {} = node #{} ({}): {}", i + 1, n.id, to_string(n.role), n.status);
    if (n.time_us) title += " — " + format_time_us(n.time_us);
    if (!n.strategy.empty()) title += "\n" + n.strategy;
    std::string cls = "mark " + status_class(n.status) + (winner ? " winner" : "");
    svg += fmt::format("<g class=\"{}\" data-k=\"{}\" data-node=\"{}\" tabindex=\"0\"><title>{}</title>", cls,
                       kernel_index, n.id, html_escape(title));
    if (is_accepted(n))
      svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\"/>", X(i), Y(std::min(*n.time_us, ymax)),
                         winner ? 6 : 4);
    else if (n.status == NodeStatus::Untimed)
      svg += fmt::format("<circle class=\"untimed\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\"/>", X(i), kTop - 20);
    else svg += fmt::format("<path d=\"M{0:.1f},{1:.1f} l7,7 m0,-7 l-7,7\"/>", X(i) - 3.5, kTop - 23.5);
    svg += "</g>";
  }
  return svg + "</svg>";
}

}  // namespace stark::report
