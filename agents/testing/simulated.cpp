#include "agents/testing/simulated.h"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "core/hash.h"

namespace stark::testing {

namespace {

uint64_t h(const std::string& s) {
  uint64_t x = std::hash<std::string>{}(s);
  return x ^ (x >> 29);
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

}  // namespace

Evaluation SimulatedEvaluator::evaluate(const Kernel& kernel, const Variant& variant) {
  ++calls_;
  std::this_thread::sleep_for(std::chrono::microseconds(h(variant.source) % 3000));
  Evaluation e;
  e.kernel = kernel.id;
  if (variant.source.find("BROKEN") != std::string::npos) {
    e.verdict = Verdict::Error;
    e.reason = "compilation failed";
    e.compile_log = "kernel.cu(3): error: identifier \"BROKEN\" is undefined";
    return e;
  }
  e.compile_ok = true;
  if (!has_gpu_) {
    e.verdict = Verdict::Error;
    e.untimed = true;
    e.reason = "not timed: no GPU";
    return e;
  }
  if (variant.source.find("WRONG") != std::string::npos) {
    e.verdict = Verdict::Rejected;
    e.reason = "output differs from the baseline";
    e.checks.push_back({CheckName::Correctness, false, "y[17]: 3.5 vs 1.25"});
    return e;
  }
  e.verdict = Verdict::Accepted;
  e.reason = "correct";
  e.baseline_us = 100.0;
  e.variant_us = 20.0 + static_cast<double>(h(variant.source) % 10000) / 100.0;
  e.speedup = *e.baseline_us / *e.variant_us;
  // Two launch sizes, 90% and 10% of the time.
  e.captures = {
      {"c-big", Timing{90.0, 89.0, 91.0, 15}, Timing{*e.variant_us * 0.9, 0, 0, 15}, 0.0, 0.0, std::nullopt},
      {"c-small", Timing{10.0, 9.0, 11.0, 15}, Timing{*e.variant_us * 0.1, 0, 0, 15}, 0.0, 0.0, std::nullopt}};
  return e;
}

std::optional<GpuInfo> SimulatedEvaluator::gpu() const {
  if (!has_gpu_) return std::nullopt;
  return GpuInfo{"Simulated GPU", "90", "0", "13.0", 132, 4800};
}

Expected<void> SimulatedValidator::validate(const Kernel&, const Variant& variant) {
  if (variant.source.find("INVALID") != std::string::npos) return Error{"host code in the variant"};
  return {};
}

RoleReply<Plan> ScriptedTeam::plan(const PlanInput& in) {
  if (in.brief->source.find("PLANLESS") != std::string::npos) return {Error{"no idea"}, {}};
  Plan p;
  // Plans made at the same time for one node are different ideas.
  p.strategy = in.proposal == 0 ? fmt::format("idea {}.{}", in.node->id, in.children.size())
                                : fmt::format("idea {}.{}.{}", in.node->id, in.children.size(), in.proposal);
  p.grounded = in.node->candidate().source;  // no markers: the search grounds it on the whole body
  return {p, {{100, 20}, cost_per_call}};
}

RoleReply<Variant> ScriptedTeam::code(const CodeInput& in) {
  Variant v;
  v.source = in.node->candidate().source;
  replace_all(v.source, "/*STARK_SPAN 1: " + in.plan.strategy + "*/", "");
  replace_all(v.source, "/*STARK_END 1*/", "");
  size_t tag = h(in.plan.strategy + in.node->candidate().source) % 3;
  // Code, not a comment: the search tells candidates apart by their tokens.
  v.source += fmt::format("\nstatic __device__ const char* stark_idea = \"{}{}\";", in.plan.strategy,
                          tag == 0 ? " BROKEN" : "");
  return {v, {{200, 80}, cost_per_call}};
}

RoleReply<Variant> ScriptedTeam::debug(const DebugInput& in) {
  {
    std::lock_guard lock(mutex_);
    debug_seen_.push_back(in.node->diagnostics);
  }
  Variant v;
  v.source = in.node->candidate().source;
  replace_all(v.source, "BROKEN", "fixed");
  replace_all(v.source, "WRONG", "right");
  return {v, {{150, 60}, cost_per_call}};
}

std::vector<std::string> ScriptedTeam::debug_diagnostics() const {
  std::lock_guard lock(mutex_);
  return debug_seen_;
}

}  // namespace stark::testing
