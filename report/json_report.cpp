#include "report/json_report.h"

#include <nlohmann/json.hpp>

#include <map>

#include "core/json_optional.h"
#include "report/format.h"
#include "report/search_tree.h"

namespace stark::report {

using nlohmann::json;

namespace {

json checks_json(const std::vector<Check>& checks) {
  auto s = summarize_checks(checks);
  json passed = json::array(), failed = json::array(), not_run = json::array();
  for (const auto* c : s.passed) passed.push_back(c->name);
  for (const auto* c : s.failed) failed.push_back({{"name", c->name}, {"detail", c->detail}});
  for (const auto* c : s.not_run) not_run.push_back({{"name", c->name}, {"detail", c->detail}});
  return {{"passed", passed}, {"failed", failed}, {"not_run", not_run}};
}

json location_json(const std::optional<Location>& loc) {
  if (!loc) return nullptr;
  json j = {{"file", loc->file}, {"line", loc->line}, {"column", loc->column}};
  if (loc->end) {
    j["end_line"] = loc->end->line;
    j["end_column"] = loc->end->column;
  }
  return j;
}

json roof_json(const KernelResult& k, const std::optional<GpuInfo>& gpu) {
  auto m = memory_roof(k, gpu);
  if (!m) return nullptr;
  return {{"baseline", m->baseline}, {"best", m->best}, {"best_gbs", m->best_gbs}, {"roof_gbs", m->roof_gbs}};
}

json kernel_json(const KernelReport& kr, const std::optional<GpuInfo>& gpu) {
  const KernelResult& k = kr.result;
  auto view = make_tree_view(k);
  std::map<std::string, int> by_status;
  for (const auto* n : attempts_in_order(k)) ++by_status[to_string(n->status)];
  json j = {{"id", k.id},
            {"name", short_name(k.id)},
            {"status", to_string(k.status)},
            {"cache", to_string(k.cache)},
            {"location", location_json(kr.location)},
            {"baseline_us", or_null(k.baseline_us)},
            {"best_us", or_null(k.best_us)},
            {"speedup", or_null(k.speedup)},
            {"second_look", k.speedup.has_value() && *k.speedup > kSecondLookSpeedup},
            {"memory_roof", roof_json(k, gpu)},
            {"attempts", k.attempts},
            {"attempts_by_status", by_status},
            {"tokens", {{"prompt", k.tokens.prompt}, {"completion", k.tokens.completion}}},
            {"cost_usd", or_null(k.cost_usd)},
            {"checks", checks_json(k.checks)},
            {"assumptions", k.assumptions},
            {"strategies", k.strategies},
            {"launch", k.best && !k.best->launch.empty() ? json(k.best->launch) : json(nullptr)},
            {"best_node", or_null(view.best)},
            {"best_path", view.best_path},
            {"diff", kr.change ? json(kr.change->diff) : json(nullptr)},
            {"diff_notes", kr.change ? kr.change->notes : std::vector<std::string>{}}};
  if (!kr.change_error.empty()) j["diff_error"] = kr.change_error;
  return j;
}

}  // namespace

json render_json(const ReportInput& in, const std::string& generator) {
  const Result& r = in.result;
  RunTotals t = run_totals(r);
  json kernels = json::array();
  for (const auto& kr : in.kernels) kernels.push_back(kernel_json(kr, in.result.gpu));
  return {{"schema", kReportSchema},
          {"generator", generator},
          {"result_dir", in.result_dir.string()},
          {"source_root", in.source_root.string()},
          {"gpu", or_null(r.gpu)},
          {"backend", {{"name", r.backend.name}, {"model", r.backend.model}}},
          {"seed", r.seed},
          {"totals",
           {{"kernels", t.kernels},
            {"improved", t.improved},
            {"attempts", t.attempts},
            {"tokens", t.tokens},
            {"cost_usd", or_null(t.cost_usd)},
            {"geomean_speedup", or_null(t.geomean_speedup)}}},
          {"kernels", kernels},
          {"warnings", in.warnings}};
}

}  // namespace stark::report
