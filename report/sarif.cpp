#include "report/sarif.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>

#include "core/hash.h"
#include "core/text.h"
#include "report/format.h"
#include "report/search_tree.h"

namespace stark::report {

using nlohmann::json;

namespace {

constexpr const char* kSrcRoot = "SRCROOT";

json region(TextPosition begin, TextPosition end) {
  return {{"startLine", begin.line}, {"startColumn", begin.column}, {"endLine", end.line}, {"endColumn", end.column}};
}

json artifact(const std::string& file) { return {{"uri", file}, {"uriBaseId", kSrcRoot}}; }

/// file:///abs/dir/ as SARIF wants a base URI (percent-encoding what a URI cannot hold).
std::string file_uri(const std::filesystem::path& dir) {
  std::string out = "file://";
  for (unsigned char c : dir.generic_string()) {
    if (std::isalnum(c) || std::string_view("/-._~").find(static_cast<char>(c)) != std::string_view::npos)
      out += static_cast<char>(c);
    else out += fmt::format("%{:02X}", c);
  }
  if (out.back() != '/') out += '/';
  return out;
}

std::string message(const KernelReport& kr, const std::optional<GpuInfo>& gpu) {
  const KernelResult& k = kr.result;
  std::string m = fmt::format("{} runs {} faster with a verified variant ({} → {} on {}, {} attempts).",
                              short_name(k.id), format_speedup(k.speedup), format_time_us(k.baseline_us),
                              format_time_us(k.best_us), format_gpu(gpu), k.attempts);
  auto view = make_tree_view(k);
  if (const auto* best = view.best ? view.find(*view.best) : nullptr; best && !best->node.strategy.empty())
    m += " Last step: " + best->node.strategy + ".";
  auto s = summarize_checks(k.checks);
  m += fmt::format(" Checks passed: {}.", s.passed.size());
  for (const auto* c : s.failed) m += fmt::format(" Check failed: {}.", c->name);
  for (const auto& [reason, names] : not_run_by_reason(s))
    m += fmt::format(" Could not run: {}{}.", join(names, ", "), reason.empty() ? "" : " (" + reason + ")");
  for (const auto& a : k.assumptions) m += " Assumes: " + a + ".";
  if (k.speedup && *k.speedup > kSecondLookSpeedup) m += " Speedup above 10x: worth a second look.";
  return m;
}

json result_for(const KernelReport& kr, const std::optional<GpuInfo>& gpu) {
  const KernelResult& k = kr.result;
  const Location& loc = *kr.location;
  json reg = loc.begin && loc.end ? region(*loc.begin, *loc.end)
                                  : json{{"startLine", loc.line}, {"startColumn", std::max(1, loc.column)}};
  auto s = summarize_checks(k.checks);
  json not_run = json::array();
  for (const auto* c : s.not_run) not_run.push_back(c->name);
  json out = {
      {"ruleId", kSarifRuleId},
      {"ruleIndex", 0},
      {"level", "note"},
      {"message", {{"text", message(kr, gpu)}}},
      {"locations",
       {{{"physicalLocation", {{"artifactLocation", artifact(loc.file)}, {"region", reg}}},
         {"logicalLocations", {{{"fullyQualifiedName", k.id}, {"name", short_name(k.id)}, {"kind", "function"}}}}}}},
      {"partialFingerprints", {{"starkKernel/v1", content_hash(k.id)}}},
      {"properties",
       {{"speedup", k.speedup ? json(*k.speedup) : json(nullptr)},
        {"baselineMicroseconds", k.baseline_us ? json(*k.baseline_us) : json(nullptr)},
        {"bestMicroseconds", k.best_us ? json(*k.best_us) : json(nullptr)},
        {"attempts", k.attempts},
        {"checksNotRun", not_run},
        {"assumptions", k.assumptions}}}};
  if (kr.change && !kr.change->edits.empty()) {
    std::map<std::string, json> by_file;
    for (size_t i = 0; i < kr.change->edits.size(); ++i) {
      const auto& e = kr.change->edits[i];
      const auto& r = kr.change->regions[i];
      by_file[e.file].push_back(
          {{"deletedRegion", region(r.begin, r.end)}, {"insertedContent", {{"text", e.replacement}}}});
    }
    json changes = json::array();
    for (auto& [file, replacements] : by_file)
      changes.push_back({{"artifactLocation", artifact(file)}, {"replacements", replacements}});
    std::string description =
        fmt::format("Replace {} with the variant measured {} faster", short_name(k.id), format_speedup(k.speedup));
    for (const auto& note : kr.change->notes) description += "; " + note;
    out["fixes"] = {{{"description", {{"text", description}}}, {"artifactChanges", changes}}};
  }
  return out;
}

json rule() {
  return {{"id", kSarifRuleId},
          {"name", "FasterKernelVariant"},
          {"shortDescription", {{"text", "A faster, verified variant of this CUDA kernel exists"}}},
          {"fullDescription",
           {{"text",
             "STARK searched variants of this [[stark::optimize]] kernel, checked each against the "
             "original on captured and fuzzed inputs, and timed it on the GPU. The fix replaces the "
             "kernel with the fastest variant that passed."}}},
          {"defaultConfiguration", {{"level", "note"}}},
          {"help",
           {{"text",
             "Review the change, then apply it with `stark apply --result DIR --mode patch` or let the "
             "STARK CMake module build the variant."},
            {"markdown",
             "Review the change, then apply it with `stark apply --result DIR --mode patch`, or let "
             "`stark_optimize_target()` build the variant."}}},
          {"properties", {{"tags", {"performance", "cuda"}}, {"precision", "high"}}}};
}

}  // namespace

json render_sarif(const ReportInput& in, const SarifOptions& options) {
  json results = json::array();
  json notifications = json::array();
  for (const auto& kr : in.kernels) {
    if (kr.result.status != KernelStatus::Improved) continue;
    if (!kr.location) {
      notifications.push_back(
          {{"level", "warning"},
           {"message",
            {{"text",
              fmt::format("improved kernel '{}' has no location in the manifest; not reported", kr.result.id)}}}});
      continue;
    }
    results.push_back(result_for(kr, in.result.gpu));
  }
  for (const auto& w : in.warnings) notifications.push_back({{"level", "warning"}, {"message", {{"text", w}}}});

  json run = {{"tool",
               {{"driver",
                 {{"name", "STARK"},
                  {"version", options.tool_version},
                  {"semanticVersion", options.tool_version},
                  {"rules", {rule()}}}}}},
              // One category per result directory (CMake's default is build/stark/<target>), so code
              // scanning keeps the results of several optimized targets apart.
              {"automationDetails", {{"id", "stark/" + in.result_dir.filename().string() + "/"}}},
              {"columnKind", "unicodeCodePoints"},
              {"results", results},
              {"invocations", {{{"executionSuccessful", true}, {"toolExecutionNotifications", notifications}}}}};
  if (!in.source_root.empty()) run["originalUriBaseIds"] = {{kSrcRoot, {{"uri", file_uri(in.source_root)}}}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", {run}}};
}

}  // namespace stark::report
