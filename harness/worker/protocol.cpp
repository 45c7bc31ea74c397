#include "harness/worker/protocol.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include <vector>
#include <string>
#include <cstdint>
#include <nlohmann/json.hpp>

#include <stdexcept>

#include "core/json_optional.h"

namespace stark::harness {

using nlohmann::json;

std::vector<ParamSpec> param_specs(const std::vector<Param>& params) {
  std::vector<ParamSpec> out;
  for (const auto& p : params) {
    ParamSpec s;
    s.name = p.name;
    s.kind = p.kind;
    s.size = p.size;
    s.type = p.kind == ParamKind::Pointer ? p.pointee : p.type;
    s.is_const = p.is_const;
    s.fields = p.fields;
    out.push_back(std::move(s));
  }
  return out;
}

const char* to_string(ReplyStatus s) {
  switch (s) {
    case ReplyStatus::Ok: return "ok";
    case ReplyStatus::Fault: return "fault";
    case ReplyStatus::Hang: return "hang";
    case ReplyStatus::Error: return "error";
  }
  return "error";
}

const char* to_string(BlobKind k) { return k == BlobKind::Store ? "store" : "file"; }

void to_json(json& j, const ParamSpec& p) {
  j = {{"name", p.name}, {"kind", to_string(p.kind)}, {"size", p.size}, {"type", p.type}, {"const", p.is_const}};
  if (!p.fields.empty()) {
    json fields = json::array();
    for (const auto& f : p.fields)
      fields.push_back({{"name", f.name}, {"type", f.type}, {"offset", f.offset}, {"size", f.size}});
    j["fields"] = fields;
  }
}
void from_json(const json& j, ParamSpec& p) {
  p = {};
  p.name = j.at("name").get<std::string>();
  p.kind = param_kind_from_json(j.at("kind"));
  p.size = j.at("size").get<int64_t>();
  p.type = j.value("type", "");
  p.is_const = j.value("const", false);
  for (const auto& f : j.value("fields", json::array()))
    p.fields.push_back({f.at("name").get<std::string>(), f.at("type").get<std::string>(), f.at("offset").get<int64_t>(),
                        f.at("size").get<int64_t>()});
}

void to_json(json& j, const TimingSettings& t) {
  j = {{"enabled", t.enabled}, {"warmup", t.warmup},           {"min_runs", t.min_runs}, {"max_runs", t.max_runs},
       {"stable", t.stable},   {"max_seconds", t.max_seconds}, {"flush_l2", t.flush_l2}};
}
void from_json(const json& j, TimingSettings& t) {
  t = {};
  t.enabled = j.value("enabled", t.enabled);
  t.warmup = j.value("warmup", t.warmup);
  t.min_runs = j.value("min_runs", t.min_runs);
  t.max_runs = j.value("max_runs", t.max_runs);
  t.stable = j.value("stable", t.stable);
  t.max_seconds = j.value("max_seconds", t.max_seconds);
  t.flush_l2 = j.value("flush_l2", t.flush_l2);
}

void to_json(json& j, const EvaluateRequest& r) {
  json inst = json::object();
  for (const auto& [m, params] : r.instantiations) inst[m] = params;
  j = {{"id", r.id},
       {"kernel", r.kernel},
       {"store", r.store},
       {"captures", r.captures},
       {"instantiations", inst},
       {"baseline_cubin", r.baseline_cubin},
       {"variant_cubin", r.variant_cubin},
       {"launch", r.launch},
       {"rtol", or_null(r.rtol)},
       {"atol", or_null(r.atol)},
       {"fuzz_rounds", r.fuzz_rounds},
       {"seed", r.seed},
       {"timing", r.timing},
       {"watchdog_seconds", r.watchdog_seconds},
       {"other_sizes", r.other_sizes}};
  if (r.shipped) {
    j["shipped"] = true;
    j["records"] = r.records;
  }
}
void from_json(const json& j, EvaluateRequest& r) {
  r = {};
  r.id = j.value("id", int64_t{0});
  r.kernel = j.value("kernel", "");
  r.store = j.at("store").get<std::string>();
  r.captures = j.at("captures").get<std::vector<std::string>>();
  for (const auto& [m, params] : j.at("instantiations").items())
    r.instantiations[m] = params.get<std::vector<ParamSpec>>();
  r.baseline_cubin = j.at("baseline_cubin").get<std::string>();
  r.variant_cubin = j.at("variant_cubin").get<std::string>();
  if (j.contains("launch") && !j["launch"].is_null()) r.launch = j["launch"].get<LaunchOverride>();
  r.rtol = optional_field<double>(j, "rtol");
  r.atol = optional_field<double>(j, "atol");
  r.fuzz_rounds = j.value("fuzz_rounds", 2);
  r.seed = j.value("seed", uint64_t{1});
  if (j.contains("timing")) r.timing = j["timing"].get<TimingSettings>();
  r.watchdog_seconds = j.value("watchdog_seconds", 10.0);
  r.other_sizes = j.value("other_sizes", true);
  r.shipped = j.value("shipped", false);
  if (r.shipped) r.records = j.at("records").get<std::vector<Capture>>();
}

void to_json(json& j, const EvaluateReply& r) {
  j = {{"id", r.id},
       {"status", to_string(r.status)},
       {"detail", r.detail},
       {"checks", r.checks},
       {"captures", r.captures}};
  if (r.no_gpu) j["no_gpu"] = true;
  if (r.other_sizes_faulted) j["other_sizes_faulted"] = true;
  if (!r.seconds.empty()) j["seconds"] = r.seconds;
}
void from_json(const json& j, EvaluateReply& r) {
  r = {};
  r.id = j.value("id", int64_t{0});
  auto s = j.at("status").get<std::string>();
  if (s == "ok") r.status = ReplyStatus::Ok;
  else if (s == "fault") r.status = ReplyStatus::Fault;
  else if (s == "hang") r.status = ReplyStatus::Hang;
  else if (s == "error") r.status = ReplyStatus::Error;
  else throw std::invalid_argument("unknown reply status '" + s + "'");
  r.detail = j.value("detail", "");
  r.checks = j.value("checks", std::vector<Check>{});
  r.captures = j.value("captures", std::vector<CaptureEvaluation>{});
  r.no_gpu = j.value("no_gpu", false);
  r.other_sizes_faulted = j.value("other_sizes_faulted", false);
  r.seconds = j.value("seconds", std::map<std::string, double>{});
}

std::string incomplete_reply(const EvaluateRequest& request, const EvaluateReply& reply) {
  if (reply.id != request.id) return fmt::format("the reply answers request {}, not {}", reply.id, request.id);
  std::map<CheckName, const Check*> by_name;
  for (const auto& c : reply.checks)
    if (!by_name.emplace(c.name, &c).second) return fmt::format("the reply lists check '{}' twice", c.name);
  // Passed, always; present (passed, or not run with its reason) where a
  // kernel may legitimately give it nothing to do.
  std::vector<CheckName> must_pass = {CheckName::BaselineReplay, CheckName::Launch,          CheckName::NoCrash,
                                      CheckName::Correctness,    CheckName::InputsUnchanged, CheckName::Guards,
                                      CheckName::Repeat};
  std::vector<CheckName> must_be_present = {CheckName::OtherSizes, CheckName::Fuzz};
  if (request.timing.enabled) {
    for (CheckName name : {CheckName::Timing, CheckName::TimedOutputs, CheckName::Recheck}) must_pass.push_back(name);
  } else {
    for (CheckName name : {CheckName::Timing, CheckName::TimedOutputs, CheckName::Recheck})
      must_be_present.push_back(name);
  }
  for (CheckName name : must_pass) {
    auto it = by_name.find(name);
    if (it == by_name.end()) return fmt::format("the reply lacks the check '{}'", name);
    if (!it->second->ok || !*it->second->ok) return fmt::format("the check '{}' did not pass", name);
  }
  for (CheckName name : must_be_present) {
    auto it = by_name.find(name);
    if (it == by_name.end()) return fmt::format("the reply lacks the check '{}'", name);
    if (it->second->ok && !*it->second->ok) return fmt::format("the check '{}' did not pass", name);
    if (!it->second->ok && it->second->detail.empty())
      return fmt::format("the check '{}' did not run and says not why", name);
  }
  if (reply.captures.empty()) return "the reply judges no capture";
  std::set<std::string> asked(request.captures.begin(), request.captures.end()), seen;
  for (const auto& c : reply.captures) {
    if (!asked.count(c.id)) return fmt::format("the reply judges capture '{}', which was not asked for", c.id);
    if (!seen.insert(c.id).second) return fmt::format("the reply judges capture '{}' twice", c.id);
    if (request.timing.enabled && (!c.baseline_us || !c.variant_us))
      return fmt::format("capture '{}' was not timed", c.id);
  }
  return "";
}

}  // namespace stark::harness
