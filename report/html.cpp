#include "report/html.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/json_optional.h"
#include "core/text.h"
#include "report/format.h"
#include "report/html_assets.h"
#include "report/html_chart.h"
#include "report/html_code.h"
#include "report/html_tree.h"
#include "report/search_tree.h"

namespace stark::report {

using nlohmann::json;

namespace {

std::string esc(std::string_view s) { return html_escape(s); }

std::string launch_text(const LaunchOverride& l) {
  std::vector<std::string> parts;
  auto dims = [](const std::vector<std::string>& d) { return d.size() == 1 ? d[0] : "(" + join(d, ", ") + ")"; };
  if (!l.grid.empty()) parts.push_back("grid " + dims(l.grid));
  if (!l.block.empty()) parts.push_back("block " + dims(l.block));
  if (l.shmem) parts.push_back("shared memory " + *l.shmem);
  return join(parts, ", ");
}

/// The page script's data: every node of every kernel. '<' is written as
/// \u003c so no string can close the <script> element.
std::string page_data(const ReportInput& in, const std::vector<TreeView>& views) {
  json kernels = json::array();
  for (size_t i = 0; i < in.kernels.size(); ++i) {
    const KernelResult& k = in.kernels[i].result;
    json nodes = json::array();
    for (const auto& p : views[i].nodes) {
      const TreeNode& n = p.node;
      nodes.push_back(
          {{"id", n.id},
           {"parent", or_null(n.parent)},
           {"role", to_string(n.role)},
           {"status", n.status},
           {"time_us", or_null(n.time_us)},
           {"strategy", n.strategy},
           {"grounding", grounding_text(n.grounding)},
           {"profile", describe(n.profile)},
           {"diagnostics", n.diagnostics},
           {"source", n.variant ? n.variant->source : ""},
           {"launch", n.variant && !n.variant->launch.empty() ? json(launch_text(n.variant->launch)) : json(nullptr)}});
    }
    std::optional<double> baseline = k.baseline_us;
    kernels.push_back(
        {{"id", k.id}, {"baseline_us", or_null(baseline)}, {"best", or_null(views[i].best)}, {"nodes", nodes}});
  }
  std::string text = json{{"kernels", kernels}}.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  for (char c : text) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

std::string header(const ReportInput& in) {
  const Result& r = in.result;
  std::string meta = "<span>" + esc(format_gpu(r.gpu)) + "</span><span>backend " + esc(format_backend(r.backend)) +
                     "</span>" + fmt::format("<span>seed {}</span>", r.seed);
  if (!in.source_root.empty()) meta += "<span>" + esc(in.source_root.string()) + "</span>";
  return "<header class=\"top\"><h1><span class=\"bolt\">&#9889;</span>STARK report</h1><div class=\"meta\">" + meta +
         "</div></header>";
}

std::string cards(const ReportInput& in) {
  RunTotals t = run_totals(in.result);
  auto card = [](const std::string& cls, const std::string& v, const std::string& k) {
    return "<div class=\"card " + cls + "\"><div class=\"v\">" + esc(v) + "</div><div class=\"k\">" + esc(k) +
           "</div></div>";
  };
  std::string out = "<div class=\"cards\">";
  out += card("hero", fmt::format("{} / {}", t.improved, t.kernels), "kernels faster");
  out += card("hero", format_speedup(t.geomean_speedup), "geometric mean speedup");
  out += card("", fmt::format("{}", t.attempts), "attempts evaluated");
  if (uses_llm(in.result.backend))
    out += card("", format_count(t.tokens) + (t.cost_usd ? " · " + format_cost(t.cost_usd) : ""), "LLM tokens · cost");
  return out + "</div>";
}

std::string summary_table(const ReportInput& in) {
  double top = 1;
  for (const auto& kr : in.kernels)
    if (kr.result.speedup) top = std::max(top, *kr.result.speedup);
  const bool llm = uses_llm(in.result.backend);
  const bool roof = std::any_of(in.kernels.begin(), in.kernels.end(), [&](const KernelReport& kr) {
    return memory_roof(kr.result, in.result.gpu).has_value();
  });
  std::string out =
      "<div class=\"card\"><table class=\"summary\"><thead><tr><th>Kernel</th><th>Status</th><th "
      "class=\"num\">Baseline</th><th class=\"num\">Best</th><th class=\"num\">Speedup</th>";
  if (roof) out += "<th class=\"num\" title=\"share of the copy bandwidth measured on this GPU\">Memory roof</th>";
  out += "<th class=\"num\">Attempts</th>";
  out += llm ? "<th class=\"num\">Tokens</th><th class=\"num\">Cost</th></tr></thead><tbody>" : "</tr></thead><tbody>";
  for (size_t i = 0; i < in.kernels.size(); ++i) {
    const KernelResult& k = in.kernels[i].result;
    std::string speed = esc(format_speedup(k.speedup));
    if (k.status == KernelStatus::Improved && k.speedup)
      speed = fmt::format("<b>{}</b><span class=\"bar\" style=\"width:{:.0f}px\"></span>", speed,
                          8 + 72 * std::log(*k.speedup) / std::log(std::max(top, 1.01)));
    out += fmt::format(
        "<tr><td><a href=\"#k{}\"><code>{}</code></a></td><td><span class=\"badge {}\">{}</span></td><td "
        "class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>",
        i, esc(short_name(k.id)), to_string(k.status), esc(status_label(k.status)), esc(format_time_us(k.baseline_us)),
        esc(format_time_us(k.best_us)), speed);
    if (roof) {
      auto m = memory_roof(k, in.result.gpu);
      out += "<td class=\"num\">" +
             (m ? esc(format_share(m->baseline)) + " → " + esc(format_share(m->best)) : std::string("—")) + "</td>";
    }
    out += fmt::format("<td class=\"num\">{}</td>", k.attempts);
    if (llm)
      out += fmt::format("<td class=\"num\">{}</td><td class=\"num\">{}</td>",
                         esc(format_count(k.tokens.prompt + k.tokens.completion)), esc(format_cost(k.cost_usd)));
    out += "</tr>";
  }
  return out + "</tbody></table></div>";
}

std::string checks_html(const KernelResult& k) {
  if (k.checks.empty()) return "";
  auto s = summarize_checks(k.checks);
  std::string out = "<div class=\"label-row\">Checks</div><div class=\"chips\">";
  auto chip = [](const char* cls, const Check& c, const std::string& suffix) {
    return fmt::format("<span class=\"chip {}\" title=\"{}\">{}{}</span>", cls, esc(c.detail), esc(to_string(c.name)),
                       suffix);
  };
  for (const auto* c : s.failed) out += chip("fail", *c, " — failed");
  for (const auto* c : s.not_run) out += chip("notrun", *c, " — could not run");
  for (const auto* c : s.passed) out += chip("pass", *c, "");
  out += "</div>";
  if (k.status == KernelStatus::Failed && !failure_reason(k).empty())
    out += "<div class=\"callout\"><b>Why it failed:</b> " + esc(failure_reason(k)) + "</div>";
  // One callout per reason: "memcheck, racecheck — compute-sanitizer is not installed".
  for (const auto& [reason, names] : not_run_by_reason(s))
    out += "<div class=\"callout\"><b>Not checked:</b>" + esc(join(names, ", ")) +
           (reason.empty() ? std::string(" could not run") : " — " + esc(reason)) + ". Not counted as passed.</div>";
  return out;
}

std::string legend(const TreeView& view) {
  std::set<NodeStatus> statuses;
  for (const auto& n : view.nodes)
    if (n.node.parent) statuses.insert(n.node.status);
  std::string out = "<span class=\"legend\"><i class=\"st-root\"></i>original</span>";
  for (const auto& s : statuses)
    out += "<span class=\"legend\"><i class=\"" + status_class(s) + "\"></i>" + esc(to_string(s)) + "</span>";
  if (view.best) out += "<span class=\"legend\"><i class=\"line\"></i>best path</span>";
  return out;
}

std::string kernel_section(const KernelReport& kr, const TreeView& view, int index, bool llm,
                           const std::optional<GpuInfo>& gpu) {
  const KernelResult& k = kr.result;
  bool improved = k.status == KernelStatus::Improved;
  std::string out =
      fmt::format("<section class=\"kernel\" id=\"k{}\"><div class=\"card\"><div class=\"khead\">", index);
  out += "<h2>" + esc(short_name(k.id)) + "</h2>";
  out += fmt::format("<span class=\"badge {}\">{}</span>", to_string(k.status), esc(status_label(k.status)));
  if (k.cache == CacheState::Hit) out += "<span class=\"badge no_gain\">from cache, re-verified</span>";
  if (k.speedup && *k.speedup > kSecondLookSpeedup)
    out += fmt::format("<span class=\"badge look\">above {:.0f}× — worth a second look</span>", kSecondLookSpeedup);
  out +=
      fmt::format("<span class=\"speed{}\">{}</span></div>", improved ? "" : " flat", esc(format_speedup(k.speedup)));
  std::string where = kr.location ? fmt::format("{}:{}", kr.location->file, kr.location->line) : "not in the manifest";
  out += "<div class=\"kid\">" + esc(k.id) + " · " + esc(where) + "</div>";

  out += "<div class=\"facts\">";
  auto fact = [](const std::string& key, const std::string& v) {
    return "<div><span class=\"k\">" + esc(key) + "</span><span class=\"v\">" + esc(v) + "</span></div>";
  };
  out += fact("baseline", format_time_us(k.baseline_us)) + fact("best", format_time_us(k.best_us)) +
         fact("attempts", fmt::format("{}", k.attempts));
  if (llm)
    out += fact("tokens in / out", format_count(k.tokens.prompt) + " / " + format_count(k.tokens.completion)) +
           fact("cost", format_cost(k.cost_usd));
  if (auto m = memory_roof(k, gpu))
    out += fact("memory roof", format_share(m->baseline) + " → " + format_share(m->best)) +
           fact("achieved", format_bandwidth(m->best_gbs) + " of " + format_bandwidth(m->roof_gbs));
  out += fact("cache", to_string(k.cache));
  out += "</div>";

  out += checks_html(k);
  for (const auto& a : k.assumptions) out += "<div class=\"callout\"><b>Assumes:</b>" + esc(a) + "</div>";
  if (k.best && !k.best->launch.empty())
    out += "<div class=\"callout info\"><b>Launch:</b>" + esc(launch_text(k.best->launch)) + "</div>";
  if (!view.nodes.empty()) {
    out += "<figure class=\"treefig\"><figcaption><b>Search tree</b>" + legend(view) +
           "</figcaption><div class=\"treebox\">" + tree_svg(view, k, index) + "</div></figure>";
    out += "<div class=\"viz\">";
    std::string chart = runtime_chart_svg(k, view, index);
    if (!chart.empty())
      out += "<figure><figcaption><b>Runtime per attempt</b><span class=\"legend\"><i class=\"dash\"></i>original " +
             esc(format_time_us(k.baseline_us)) +
             "</span><span class=\"legend\"><i class=\"line\"></i>best so far</span><span class=\"legend\"><i "
             "class=\"st-accepted\"></i>accepted</span><span class=\"legend cross\">&#215; failed</span></figcaption>" +
             chart + "</figure>";
    out += fmt::format("<div class=\"panel\" data-k=\"{}\"></div></div>", index);
  } else if (k.status == KernelStatus::Skipped) {
    out += "<p class=\"muted\">Skipped: not searched (the annotation says skip, or no capture reached it).</p>";
  }

  if (!k.strategies.empty()) {
    out += fmt::format("<details class=\"strategies\"><summary>{} strateg{} tried</summary><div class=\"chips\">",
                       k.strategies.size(), k.strategies.size() == 1 ? "y" : "ies");
    for (const auto& s : k.strategies) out += "<span class=\"chip strategy\">" + esc(s) + "</span>";
    out += "</div></details>";
  }

  if (kr.change && !kr.change->diff.empty()) {
    std::set<std::string> files;
    for (const auto& e : kr.change->edits) files.insert(e.file);
    out += fmt::format(
        "<details class=\"diff\" open><summary>Winning change: {}<span class=\"plus\">+{}</span><span "
        "class=\"minus\">−{}</span></summary>",
        esc(join(std::vector<std::string>(files.begin(), files.end()), ", ")), kr.change->added, kr.change->removed);
    for (const auto& note : kr.change->notes) out += "<div class=\"callout info\">" + esc(note) + "</div>";
    out += diff_html(kr.change->diff) + "</details>";
  } else if (!kr.change_error.empty()) {
    out += "<div class=\"callout\"><b>No diff:</b>" + esc(kr.change_error) + "</div>";
  }
  return out + "</div></section>";
}

}  // namespace

std::string render_html(const ReportInput& in, const HtmlOptions& options) {
  std::vector<TreeView> views;
  for (const auto& kr : in.kernels) views.push_back(make_tree_view(kr.result));
  RunTotals t = run_totals(in.result);
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "script-src 'unsafe-inline'; img-src data:\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  out += fmt::format("<title>STARK report: {} of {} kernels faster</title>", t.improved, t.kernels);
  out += "<style>" + std::string(kHtmlStyle) + "</style></head><body>";
  out += header(in) + "<main>" + cards(in) + summary_table(in);
  for (size_t i = 0; i < in.kernels.size(); ++i)
    out += kernel_section(in.kernels[i], views[i], static_cast<int>(i), uses_llm(in.result.backend), in.result.gpu);
  if (!in.warnings.empty()) {
    out += "<div class=\"warnings\">";
    for (const auto& w : in.warnings) out += "<div class=\"callout\"><b>Warning:</b>" + esc(w) + "</div>";
    out += "</div>";
  }
  out += "<footer>" + esc(options.generator) +
         " · times are the kernel's time over the captured workload (sum of per-capture medians), original and "
         "variant on the same GPU</footer></main>";
  out += "<script type=\"application/json\" id=\"stark-data\">" + page_data(in, views) + "</script>";
  out += "<script>" + std::string(kHtmlScript) + "</script></body></html>\n";
  return out;
}

}  // namespace stark::report
