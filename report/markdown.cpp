#include "report/markdown.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/text.h"
#include "report/format.h"
#include "report/html_code.h"
#include "report/search_tree.h"

namespace stark::report {

namespace {

/// Plain text safe in Markdown (and in a table cell): ASCII punctuation that
/// Markdown or HTML would interpret is backslash-escaped, newlines become
/// spaces, and an '@' gets a zero-width space after it so that no text from
/// a result notifies a GitHub user or team.
std::string text(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\n' || c == '\r') {
      out += ' ';
      continue;
    }
    if (c == '@') {
      out += "@&#8203;";
      continue;
    }
    if (std::string_view("\\`*_[]<>|#~&!").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

/// Text inside an HTML element (the <summary> of a folded diff), where
/// Markdown escapes do not apply: HTML-escaped, on one line, no mention.
std::string html_text(std::string_view s) {
  std::string out;
  for (char c : html_escape(s)) {
    if (c == '@') out += "@&#8203;";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

/// Inline code: a span fenced with more backticks than it contains.
std::string code(std::string_view s) {
  size_t run = 0, longest = 0;
  for (char c : s) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
  std::string fence(longest + 1, '`');
  std::string body(s);
  std::replace(body.begin(), body.end(), '\n', ' ');
  std::replace(body.begin(), body.end(), '|', '/');  // a '|' would split a table cell even inside code
  bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

/// A fenced block that no line of `body` can close.
std::string code_block(std::string_view lang, std::string_view body) {
  size_t run = 0, longest = 0;
  for (char c : body) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  std::string out = fence + std::string(lang) + "\n" + std::string(body);
  if (!body.empty() && body.back() != '\n') out += '\n';
  return out + fence + "\n";
}

std::string status_cell(const KernelResult& k) {
  switch (k.status) {
    case KernelStatus::Improved: return "✅ improved";
    case KernelStatus::NoGain: return "➖ no gain";
    case KernelStatus::Failed: return "❌ failed";
    case KernelStatus::Skipped: return "⏭️ skipped";
    case KernelStatus::Untimed: return "⏱️ untimed";
  }
  return "";
}

std::string speedup_cell(const KernelResult& k) {
  if (!k.speedup) return "—";
  std::string s = format_speedup(k.speedup);
  if (k.status != KernelStatus::Improved) return s;
  return "**" + s + "**" + (*k.speedup > kSecondLookSpeedup ? " ⚠️" : "");
}

std::string where(const KernelReport& k) {
  if (!k.location) return "";
  return " · " + code(fmt::format("{}:{}", k.location->file, k.location->line));
}

std::string checks_line(const KernelResult& k) {
  auto s = summarize_checks(k.checks);
  std::vector<std::string> parts;
  if (k.checks.empty()) parts.push_back("none recorded");
  if (!s.passed.empty()) {
    std::vector<std::string> names;
    for (const auto* c : s.passed) names.push_back(code(to_string(c->name)));
    parts.push_back(fmt::format("✅ {} passed: {}", s.passed.size(), join(names, ", ")));
  }
  for (const auto* c : s.failed)
    parts.push_back(
        fmt::format("❌ failed: {}{}", code(to_string(c->name)), c->detail.empty() ? "" : " — " + text(c->detail)));
  for (const auto& [reason, names] : not_run_by_reason(s)) {
    std::vector<std::string> coded;
    for (const auto& n : names) coded.push_back(code(n));
    parts.push_back(
        fmt::format("⚠️ could not run: {}{}", join(coded, ", "), reason.empty() ? "" : " (" + text(reason) + ")"));
  }
  return "**Checks:** " + join(parts, " · ");
}

std::string launch_line(const LaunchOverride& l) {
  std::vector<std::string> parts;
  auto dims = [](const std::vector<std::string>& d) { return code(d.size() == 1 ? d[0] : "(" + join(d, ", ") + ")"); };
  if (!l.grid.empty()) parts.push_back("grid " + dims(l.grid));
  if (!l.block.empty()) parts.push_back("block " + dims(l.block));
  if (l.shmem) parts.push_back("dynamic shared memory " + code(*l.shmem));
  return "**Launch:** " + join(parts, ", ");
}

/// Why a kernel did not improve, in one line.
std::string outcome_line(const KernelReport& kr) {
  const KernelResult& k = kr.result;
  std::string line = fmt::format("- {} {}{}: ", code(short_name(k.id)), status_label(k.status), where(kr));
  std::map<std::string, int> by_status;
  for (const auto* n : attempts_in_order(k)) ++by_status[to_string(n->status)];
  std::vector<std::string> parts;
  if (k.status == KernelStatus::NoGain && k.speedup)
    parts.push_back(fmt::format("best attempt {} ({} → {})", format_speedup(k.speedup), format_time_us(k.baseline_us),
                                format_time_us(k.best_us)));
  if (k.status == KernelStatus::Skipped) parts.push_back("not searched");
  if (k.status == KernelStatus::Untimed) parts.push_back("no GPU to time it on");
  if (k.attempts > 0) {
    std::vector<std::string> counts;
    for (const auto& [status, n] : by_status) counts.push_back(fmt::format("{} {}", n, text(status)));
    parts.push_back(fmt::format("{} attempt{}{}", k.attempts, k.attempts == 1 ? "" : "s",
                                counts.empty() ? "" : " (" + join(counts, ", ") + ")"));
  }
  auto s = summarize_checks(k.checks);
  if (k.status == KernelStatus::Failed && !failure_reason(k).empty()) parts.push_back(code(failure_reason(k)));
  else
    for (const auto* c : s.failed) parts.push_back(fmt::format("{} failed", code(to_string(c->name))));
  for (const auto* n : attempts_in_order(k)) {
    if (n->diagnostics.empty() || is_accepted(*n)) continue;
    std::string first_line = n->diagnostics.substr(0, n->diagnostics.find('\n'));
    if (first_line.size() > 120) first_line = first_line.substr(0, 117) + "...";
    parts.push_back("e.g. " + code(first_line));
    break;
  }
  return line + (parts.empty() ? "nothing recorded" : join(parts, "; ")) + "\n";
}

std::string roof_sentence(const MemoryRoof& roof) {
  return fmt::format(" {} → **{}** of the memory roof ({} of the {} copy bandwidth measured).",
                     format_share(roof.baseline), format_share(roof.best), format_bandwidth(roof.best_gbs),
                     format_bandwidth(roof.roof_gbs));
}

std::string kernel_section(const KernelReport& kr, const std::optional<GpuInfo>& gpu, bool with_diff) {
  const KernelResult& k = kr.result;
  std::string out =
      fmt::format("\n### {} — {} faster{}\n\n", code(short_name(k.id)), format_speedup(k.speedup), where(kr));
  out += fmt::format("{} → **{}** on this GPU, after {} attempt{}", format_time_us(k.baseline_us),
                     format_time_us(k.best_us), k.attempts, k.attempts == 1 ? "" : "s");
  if (k.cache == CacheState::Hit) out += " (from the result cache, re-verified)";
  out += ".";
  if (k.speedup && *k.speedup > kSecondLookSpeedup)
    out +=
        fmt::format(" ⚠️ Above {:.0f}×: worth a second look at what the kernel does differently.", kSecondLookSpeedup);
  if (auto roof = memory_roof(k, gpu)) out += roof_sentence(*roof);
  out += "\n\n" + checks_line(k) + "  \n";
  if (!k.assumptions.empty()) {
    std::vector<std::string> a;
    for (const auto& s : k.assumptions) a.push_back(text(s));
    out += "**Assumes:** " + join(a, " · ") + "  \n";
  }
  auto view = make_tree_view(k);
  if (view.best) {
    std::vector<std::string> path;
    for (int id : view.best_path) {
      const auto* n = view.find(id);
      if (n && n->node.parent && is_accepted(n->node) && !n->node.strategy.empty())
        path.push_back(text(n->node.strategy));
    }
    if (!path.empty()) out += "**How:** " + join(path, " → ") + "  \n";
  }
  if (k.best && !k.best->launch.empty()) out += launch_line(k.best->launch) + "  \n";
  if (kr.change) {
    for (const auto& note : kr.change->notes) out += "_" + text(note) + "_  \n";
    if (with_diff && !kr.change->diff.empty()) {
      std::set<std::string> files;
      for (const auto& e : kr.change->edits) files.insert(html_text(e.file));
      out += fmt::format("\n<details><summary>Diff: {} (+{} −{})</summary>\n\n{}\n</details>\n",
                         join(std::vector<std::string>(files.begin(), files.end()), ", "), kr.change->added,
                         kr.change->removed, code_block("diff", kr.change->diff));
    } else if (!kr.change->diff.empty()) {
      out += fmt::format(
          "_Diff (+{} −{}) left out to keep this comment under GitHub's size limit: see the "
          "patch._\n",
          kr.change->added, kr.change->removed);
    }
  } else if (!kr.change_error.empty()) {
    out += "_No diff: " + text(kr.change_error) + "_\n";
  }
  return out;
}

std::string render(const ReportInput& in, const MarkdownOptions& options, const std::set<size_t>& without_diff) {
  const Result& r = in.result;
  RunTotals t = run_totals(r);
  std::string out = std::string(kMarkdownMarker) + "\n";
  out += fmt::format("## ⚡ STARK: {} of {} kernel{} faster", t.improved, t.kernels, t.kernels == 1 ? "" : "s");
  if (t.geomean_speedup && t.improved > 1)
    out += fmt::format(" (geometric mean {})", format_speedup(t.geomean_speedup));
  out += "\n\n";
  // The built-in expert spends no tokens: no columns of zeros for it.
  const bool llm = uses_llm(r.backend);
  std::vector<std::string> facts = {"Measured on **" + text(format_gpu(r.gpu)) + "**",
                                    "backend " + text(format_backend(r.backend)), fmt::format("seed {}", r.seed),
                                    fmt::format("{} attempts", t.attempts)};
  if (llm) facts.push_back(fmt::format("{} tokens", format_count(t.tokens)));
  if (llm && t.cost_usd) facts.push_back(format_cost(t.cost_usd));
  out += join(facts, " · ") + "\n\n";

  // Columns only for what this run measured: tokens for models, the memory
  // roof where the worker timed captures with their bytes.
  const bool roof = std::any_of(in.kernels.begin(), in.kernels.end(),
                                [&](const KernelReport& kr) { return memory_roof(kr.result, r.gpu).has_value(); });
  out += "| Kernel | Status | Baseline | Best | Speedup |";
  if (roof) out += " Memory roof |";
  out += llm ? " Attempts | Tokens | Cost |\n" : " Attempts |\n";
  out += "| :-- | :-- | --: | --: | --: |";
  if (roof) out += " --: |";
  out += llm ? " --: | --: | --: |\n" : " --: |\n";
  for (const auto& kr : in.kernels) {
    const KernelResult& k = kr.result;
    out += fmt::format("| {} | {} | {} | {} | {} |", code(short_name(k.id)), status_cell(k),
                       format_time_us(k.baseline_us), format_time_us(k.best_us), speedup_cell(k));
    if (roof) {
      auto m = memory_roof(k, r.gpu);
      out += m ? fmt::format(" {} → {} |", format_share(m->baseline), format_share(m->best)) : " — |";
    }
    out += fmt::format(" {} |", k.attempts);
    if (llm)
      out += fmt::format(" {} | {} |", format_count(k.tokens.prompt + k.tokens.completion), format_cost(k.cost_usd));
    out += "\n";
  }

  for (size_t i = 0; i < in.kernels.size(); ++i)
    if (in.kernels[i].result.status == KernelStatus::Improved)
      out += kernel_section(in.kernels[i], r.gpu, !without_diff.count(i));

  std::string others;
  for (const auto& kr : in.kernels)
    if (kr.result.status != KernelStatus::Improved) others += outcome_line(kr);
  if (!others.empty()) out += "\n### Not improved\n\n" + others;

  if (!in.warnings.empty()) {
    out += "\n";
    for (const auto& w : in.warnings) out += "> ⚠️ " + text(w) + "\n";
  }
  out += fmt::format(
      "\n<sub>{} · times are the kernel's time over the captured workload (sum of per-capture "
      "medians), original and variant on the same GPU · apply with {}</sub>\n",
      text(options.generator), code("stark apply --result DIR --mode patch"));
  return out;
}

}  // namespace

std::string render_markdown(const ReportInput& in, const MarkdownOptions& options) {
  std::set<size_t> without_diff;
  std::string out = render(in, options, without_diff);
  while (out.size() > options.max_chars) {
    // Drop the largest diff still shown.
    std::optional<size_t> largest;
    for (size_t i = 0; i < in.kernels.size(); ++i) {
      const auto& c = in.kernels[i].change;
      if (!c || c->diff.empty() || without_diff.count(i)) continue;
      if (!largest || c->diff.size() > in.kernels[*largest].change->diff.size()) largest = i;
    }
    if (!largest) break;
    without_diff.insert(*largest);
    out = render(in, options, without_diff);
  }
  if (out.size() > options.max_chars) {
    // Still too long without any diff (hundreds of kernels): cut at a line
    // and say where the rest is. No <details> is open once the diffs are gone.
    const std::string note =
        "\n_The rest of this report is cut to stay under GitHub's comment limit: `stark report --format html` "
        "has every kernel._\n";
    size_t keep = options.max_chars > note.size() ? options.max_chars - note.size() : 0;
    size_t cut = out.rfind('\n', keep);
    out = out.substr(0, cut == std::string::npos ? 0 : cut + 1) + note;
  }
  return out;
}

}  // namespace stark::report
