#include "report/format.h"

#include <fmt/format.h>

#include <algorithm>

namespace stark::report {

std::string format_time_us(std::optional<double> us) {
  if (!us) return "—";
  if (*us >= 1e6) return sig3(*us / 1e6) + " s";
  if (*us >= 1e3) return sig3(*us / 1e3) + " ms";
  return sig3(*us) + " µs";
}

std::string format_speedup(std::optional<double> s) {
  if (!s) return "—";
  return fmt::format("{:.{}f}×", *s, *s >= 10 ? 1 : 2);
}

std::optional<MemoryRoof> memory_roof(const KernelResult& k, const std::optional<GpuInfo>& gpu) {
  if (!gpu || !(gpu->copy_bandwidth_gbs > 0) || k.captures.empty()) return std::nullopt;
  double bytes = 0, baseline_us = 0, best_us = 0;
  for (const auto& c : k.captures) {
    if (!c.bytes || !(c.baseline_us > 0) || !(c.best_us > 0)) return std::nullopt;
    bytes += static_cast<double>(*c.bytes);
    baseline_us += c.baseline_us;
    best_us += c.best_us;
  }
  if (!(bytes > 0)) return std::nullopt;
  MemoryRoof r;
  r.roof_gbs = gpu->copy_bandwidth_gbs;
  r.best_gbs = bytes / (best_us * 1e3);  // bytes per microsecond / 1e3 = GB/s
  r.best = r.best_gbs / r.roof_gbs;
  r.baseline = bytes / (baseline_us * 1e3) / r.roof_gbs;
  return r;
}

std::string format_share(std::optional<double> share) { return share ? stark::format_share(*share) : "—"; }

std::string format_count(int64_t n) {
  if (n >= 1'000'000) return sig3(n / 1e6) + "M";
  if (n >= 10'000) return sig3(n / 1e3) + "k";
  return fmt::format("{}", n);
}

std::string format_cost(std::optional<double> usd) {
  if (!usd) return "—";
  if (*usd != 0 && *usd < 0.01) return fmt::format("${:.4f}", *usd);
  return fmt::format("${:.2f}", *usd);
}

std::string format_gpu(const std::optional<GpuInfo>& gpu) {
  if (!gpu || gpu->name.empty()) return "no GPU";
  std::vector<std::string> parts;
  if (!gpu->sm.empty()) parts.push_back("sm_" + gpu->sm);
  if (!gpu->driver.empty()) parts.push_back("driver " + gpu->driver);
  if (!gpu->cuda.empty()) parts.push_back("CUDA " + gpu->cuda);
  if (parts.empty()) return gpu->name;
  return fmt::format("{} ({})", gpu->name, fmt::join(parts, ", "));
}

std::string format_backend(const BackendInfo& b) {
  if (b.name.empty()) return "unknown backend";
  return b.model.empty() ? b.name : b.name + " " + b.model;
}

bool uses_llm(const BackendInfo& b) { return !b.name.empty() && b.name != "builtin"; }

CheckSummary summarize_checks(const std::vector<Check>& checks) {
  CheckSummary s;
  for (const auto& c : checks) {
    if (!c.ok) s.not_run.push_back(&c);
    else if (*c.ok) s.passed.push_back(&c);
    else s.failed.push_back(&c);
  }
  return s;
}

std::string failure_reason(const KernelResult& k) {
  auto first_line = [](const std::string& text) { return text.substr(0, text.find('\n')); };
  for (const auto& c : k.checks)
    if (c.ok && !*c.ok)
      return c.detail.empty() ? fmt::format("{} failed", c.name) : fmt::format("{}: {}", c.name, first_line(c.detail));
  for (const auto& n : k.tree)
    if (!n.parent && !n.diagnostics.empty()) return first_line(n.diagnostics);
  return "";
}

std::vector<std::pair<std::string, std::vector<std::string>>> not_run_by_reason(const CheckSummary& s) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const auto* c : s.not_run) {
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& r) { return r.first == c->detail; });
    if (it == out.end()) it = out.insert(out.end(), {c->detail, {}});
    it->second.push_back(to_string(c->name));
  }
  return out;
}

RunTotals run_totals(const Result& r) {
  RunTotals t;
  double log_sum = 0;
  int timed = 0;
  for (const auto& k : r.kernels) {
    ++t.kernels;
    t.attempts += k.attempts;
    t.tokens += k.tokens.prompt + k.tokens.completion;
    if (k.cost_usd) t.cost_usd = t.cost_usd.value_or(0) + *k.cost_usd;
    if (k.status != KernelStatus::Improved) continue;
    ++t.improved;
    if (k.speedup && *k.speedup > 0) {
      ++timed;
      log_sum += std::log(*k.speedup);
    }
  }
  if (timed > 0) t.geomean_speedup = std::exp(log_sum / timed);
  return t;
}

std::string status_label(KernelStatus s) {
  switch (s) {
    case KernelStatus::Improved: return "improved";
    case KernelStatus::NoGain: return "no gain";
    case KernelStatus::Failed: return "failed";
    case KernelStatus::Skipped: return "skipped";
    case KernelStatus::Untimed: return "untimed";
  }
  return "unknown";
}

std::string grounding_text(Grounding g) {
  switch (g) {
    case Grounding::None: return "";
    case Grounding::Spans: return "grounded: the plan's spans, the rest kept";
    case Grounding::Reanchored: return "grounded: plan re-anchored (it changed code outside its markers)";
    case Grounding::WholeBody: return "grounded: whole body (the plan had no markers)";
    case Grounding::OutsideSpans: return "not grounded: the code changed code outside the plan's spans";
  }
  return "";
}

}  // namespace stark::report
