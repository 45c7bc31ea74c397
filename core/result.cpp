#include "core/result.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <stdexcept>

#include "core/enum_names.h"
#include "core/file_io.h"
#include "core/json_optional.h"

namespace stark {

using nlohmann::json;

namespace {

constexpr std::pair<const char*, KernelStatus> kStatuses[] = {{"improved", KernelStatus::Improved},
                                                              {"no_gain", KernelStatus::NoGain},
                                                              {"failed", KernelStatus::Failed},
                                                              {"skipped", KernelStatus::Skipped},
                                                              {"untimed", KernelStatus::Untimed}};
constexpr std::pair<const char*, CacheState> kCacheStates[] = {
    {"hit", CacheState::Hit}, {"miss", CacheState::Miss}, {"off", CacheState::Off}};
constexpr std::pair<const char*, NodeRole> kRoles[] = {
    {"root", NodeRole::Root}, {"plan+code", NodeRole::PlanCode}, {"debug", NodeRole::Debug}};
constexpr std::pair<const char*, Grounding> kGroundings[] = {{"none", Grounding::None},
                                                             {"spans", Grounding::Spans},
                                                             {"reanchored", Grounding::Reanchored},
                                                             {"whole_body", Grounding::WholeBody},
                                                             {"outside_spans", Grounding::OutsideSpans}};

}  // namespace

const char* to_string(KernelStatus s) { return enum_name(s, kStatuses); }
const char* to_string(CacheState s) { return enum_name(s, kCacheStates); }
const char* to_string(Grounding g) { return enum_name(g, kGroundings); }
const char* to_string(NodeRole r) { return enum_name(r, kRoles); }
std::optional<NodeRole> node_role_from_string(std::string_view name) { return enum_from_name(name, kRoles); }
std::optional<Grounding> grounding_from_string(std::string_view name) { return enum_from_name(name, kGroundings); }

void to_json(json& j, const TreeNode& n) {
  j = {{"id", n.id},
       {"parent", or_null(n.parent)},
       {"role", to_string(n.role)},
       {"status", n.status},
       {"time_us", or_null(n.time_us)},
       {"diagnostics", n.diagnostics},
       {"variant", or_null(n.variant)}};
  if (!n.strategy.empty()) j["strategy"] = n.strategy;
  if (n.grounding != Grounding::None) j["grounding"] = to_string(n.grounding);
  if (!n.temperature_dropped.empty()) j["temperature_dropped"] = n.temperature_dropped;
  if (!n.profile.empty()) j["profile"] = n.profile;
}
void from_json(const json& j, TreeNode& n) {
  n = {};
  n.id = j.at("id").get<int>();
  n.parent = optional_field<int>(j, "parent");
  n.role = parse_enum(j.at("role"), "node role", kRoles);
  n.status = j.at("status").get<NodeStatus>();
  n.time_us = optional_field<double>(j, "time_us");
  n.diagnostics = j.value("diagnostics", "");
  n.variant = optional_field<Variant>(j, "variant");
  n.strategy = j.value("strategy", "");
  if (j.contains("grounding")) n.grounding = parse_enum(j.at("grounding"), "grounding", kGroundings);
  n.temperature_dropped = j.value("temperature_dropped", std::vector<std::string>{});
  n.profile = j.value("profile", ProfileFacts{});
}

std::vector<CaptureTime> capture_times(const Evaluation& e) {
  std::vector<CaptureTime> out;
  for (const auto& c : e.captures)
    if (c.baseline_us && c.variant_us) out.push_back({c.id, c.baseline_us->median, c.variant_us->median, c.bytes});
  return out;
}

void to_json(json& j, const CaptureTime& c) {
  j = {{"id", c.id}, {"baseline_us", c.baseline_us}, {"best_us", c.best_us}};
  if (c.bytes) j["bytes"] = *c.bytes;
}
void from_json(const json& j, CaptureTime& c) {
  c.id = j.at("id").get<std::string>();
  c.baseline_us = j.at("baseline_us").get<double>();
  c.best_us = j.at("best_us").get<double>();
  c.bytes = optional_field<uint64_t>(j, "bytes");
}

void to_json(json& j, const KernelResult& k) {
  json best = nullptr;
  if (k.best) {
    best = *k.best;
    best.erase("kernel");
    best.erase("schema");
  }
  j = {{"id", k.id},
       {"status", to_string(k.status)},
       {"cache", to_string(k.cache)},
       {"baseline_us", or_null(k.baseline_us)},
       {"best_us", or_null(k.best_us)},
       {"speedup", or_null(k.speedup)},
       {"attempts", k.attempts},
       {"tokens", {{"prompt", k.tokens.prompt}, {"completion", k.tokens.completion}}},
       {"cost_usd", or_null(k.cost_usd)},
       {"best", best},
       {"checks", k.checks},
       {"strategies", k.strategies},
       {"assumptions", k.assumptions},
       {"tree", k.tree}};
  if (!k.captures.empty()) j["captures"] = k.captures;
}
void from_json(const json& j, KernelResult& k) {
  k = {};
  k.id = j.at("id").get<std::string>();
  k.status = parse_enum(j.at("status"), "kernel status", kStatuses);
  k.cache = j.contains("cache") ? parse_enum(j["cache"], "cache state", kCacheStates) : CacheState::Off;
  k.baseline_us = optional_field<double>(j, "baseline_us");
  k.best_us = optional_field<double>(j, "best_us");
  k.speedup = optional_field<double>(j, "speedup");
  k.attempts = j.value("attempts", 0);
  if (j.contains("tokens") && j["tokens"].is_object()) {
    k.tokens.prompt = j["tokens"].value("prompt", int64_t{0});
    k.tokens.completion = j["tokens"].value("completion", int64_t{0});
  }
  k.cost_usd = optional_field<double>(j, "cost_usd");
  k.best = optional_field<Variant>(j, "best");
  if (k.best) k.best->kernel = k.id;
  k.checks = j.value("checks", std::vector<Check>{});
  k.strategies = j.value("strategies", std::vector<std::string>{});
  k.assumptions = j.value("assumptions", std::vector<std::string>{});
  k.captures = j.value("captures", std::vector<CaptureTime>{});
  k.tree = j.at("tree").get<std::vector<TreeNode>>();
}

void to_json(json& j, const Result& r) {
  j = {{"schema", kResultSchema},  {"source_root", r.source_root},
       {"build_dir", r.build_dir}, {"manifest", r.manifest},
       {"gpu", or_null(r.gpu)},    {"backend", {{"name", r.backend.name}, {"model", r.backend.model}}},
       {"seed", r.seed},           {"kernels", r.kernels}};
}
void from_json(const json& j, Result& r) {
  r = {};
  r.source_root = j.at("source_root").get<std::string>();
  r.build_dir = j.value("build_dir", "");
  r.manifest = j.at("manifest").get<std::string>();
  r.gpu = optional_field<GpuInfo>(j, "gpu");
  if (j.contains("backend") && j["backend"].is_object()) {
    r.backend.name = j["backend"].value("name", "");
    r.backend.model = j["backend"].value("model", "");
  }
  r.seed = j.value("seed", int64_t{0});
  r.kernels = j.at("kernels").get<std::vector<KernelResult>>();
}

Expected<Result> load_result(const std::string& dir) {
  auto path = std::filesystem::path(dir) / "result.json";
  auto j = read_json_file(path);
  if (!j) return j.error();
  if (!j->is_object() || !j->contains("schema") ||
      (*j)["schema"] != kResultSchema)  // any type: compared, never converted
    return Error{fmt::format("'{}' is not a STARK result (expected \"schema\": \"{}\")", path.string(), kResultSchema)};
  try {
    return j->get<Result>();
  } catch (const std::exception& e) {
    return Error{fmt::format("'{}' is not a valid result: {}", path.string(), e.what())};
  }
}

}  // namespace stark
