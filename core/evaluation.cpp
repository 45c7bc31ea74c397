#include "core/evaluation.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "core/json_optional.h"

namespace stark {

using nlohmann::json;

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Accepted: return "accepted";
    case Verdict::Rejected: return "rejected";
    case Verdict::Error: return "error";
  }
  return "error";
}

void to_json(json& j, const Check& c) {
  j = {{"name", c.name}, {"ok", or_null(c.ok)}};
  if (!c.detail.empty()) j["detail"] = c.detail;
}
void from_json(const json& j, Check& c) {
  c.name = j.at("name").get<CheckName>();
  c.ok = optional_field<bool>(j, "ok");
  c.detail = j.value("detail", "");
}

void to_json(json& j, const Timing& t) { j = {{"median", t.median}, {"p10", t.p10}, {"p90", t.p90}, {"n", t.n}}; }
void from_json(const json& j, Timing& t) {
  t.median = j.at("median").get<double>();
  t.p10 = j.value("p10", t.median);
  t.p90 = j.value("p90", t.median);
  t.n = j.value("n", 0);
}

void to_json(json& j, const CaptureEvaluation& c) {
  j = {{"id", c.id}};
  if (c.baseline_us) j["baseline_us"] = *c.baseline_us;
  if (c.variant_us) j["variant_us"] = *c.variant_us;
  j["max_abs_err"] = or_null(c.max_abs_err);
  j["max_rel_err"] = or_null(c.max_rel_err);
  if (c.bytes) j["bytes"] = *c.bytes;
  if (c.baseline_occupancy) j["baseline_occupancy"] = *c.baseline_occupancy;
  if (c.variant_occupancy) j["variant_occupancy"] = *c.variant_occupancy;
}

void from_json(const json& j, CaptureEvaluation& c) {
  c = {};
  c.id = j.at("id").is_string() ? j["id"].get<std::string>() : j["id"].dump();
  c.baseline_us = optional_field<Timing>(j, "baseline_us");
  c.variant_us = optional_field<Timing>(j, "variant_us");
  c.max_abs_err = optional_field<double>(j, "max_abs_err");
  c.max_rel_err = optional_field<double>(j, "max_rel_err");
  c.bytes = optional_field<uint64_t>(j, "bytes");
  c.baseline_occupancy = optional_field<double>(j, "baseline_occupancy");
  c.variant_occupancy = optional_field<double>(j, "variant_occupancy");
}

void to_json(json& j, const Evaluation& e) {
  j = {{"schema", kEvaluationSchema},
       {"kernel", e.kernel},
       {"verdict", to_string(e.verdict)},
       {"reason", e.reason},
       {"compile", {{"ok", e.compile_ok}, {"log", e.compile_log}}},
       {"checks", e.checks},
       {"captures", e.captures},
       {"baseline_us", or_null(e.baseline_us)},
       {"variant_us", or_null(e.variant_us)},
       {"speedup", or_null(e.speedup)},
       {"gpu", or_null(e.gpu)}};
  if (e.untimed) j["untimed"] = true;
  if (!e.seconds.empty()) j["seconds"] = e.seconds;
  if (!e.baseline_profile.empty()) j["baseline_profile"] = e.baseline_profile;
  if (!e.variant_profile.empty()) j["variant_profile"] = e.variant_profile;
}

void from_json(const json& j, Evaluation& e) {
  e = {};
  e.kernel = j.at("kernel").get<std::string>();
  auto v = j.at("verdict").get<std::string>();
  if (v == "accepted") e.verdict = Verdict::Accepted;
  else if (v == "rejected") e.verdict = Verdict::Rejected;
  else if (v == "error") e.verdict = Verdict::Error;
  else throw std::invalid_argument("unknown verdict '" + v + "'");
  e.reason = j.at("reason").get<std::string>();
  e.compile_ok = j.at("compile").at("ok").get<bool>();
  e.compile_log = j.at("compile").value("log", "");
  e.checks = j.at("checks").get<std::vector<Check>>();
  e.captures = j.value("captures", std::vector<CaptureEvaluation>{});
  e.baseline_us = optional_field<double>(j, "baseline_us");
  e.variant_us = optional_field<double>(j, "variant_us");
  e.speedup = optional_field<double>(j, "speedup");
  e.gpu = optional_field<GpuInfo>(j, "gpu");
  e.untimed = j.value("untimed", false);
  e.seconds = j.value("seconds", std::map<std::string, double>{});
  e.baseline_profile = j.value("baseline_profile", ProfileFacts{});
  e.variant_profile = j.value("variant_profile", ProfileFacts{});
}

}  // namespace stark
