#include "harness/evaluator/profile_facts.h"

#include "harness/evaluator/ncu.h"

#include <algorithm>
#include <optional>

namespace stark::harness {

namespace {

void lower(std::optional<double>& to, const std::optional<double>& v) {
  if (v) to = to ? std::min(*to, *v) : *v;
}

void set_bandwidth(ProfileFacts& f, double bytes, double us, double copy_gbs) {
  if (!(bytes > 0) || !(us > 0)) return;
  f.achieved_gbs = bytes / (us * 1e3);  // bytes per microsecond / 1e3 = GB/s
  if (copy_gbs > 0) f.roof_share = *f.achieved_gbs / copy_gbs;
}

}  // namespace

std::vector<KernelResources> cubin_resources(const CubinInfo& cubin, const std::set<std::string>& judged) {
  std::vector<KernelResources> out;
  for (const auto& k : cubin.kernels)
    if (judged.count(k.name) && k.registers >= 0)
      out.push_back({k.name, k.registers, std::max(0, k.stack_bytes), k.shared_bytes});
  return out;
}

void add_measured_facts(Evaluation& e) {
  double bytes = 0, base_us = 0, var_us = 0;
  bool complete = !e.captures.empty();
  for (const auto& c : e.captures) {
    lower(e.baseline_profile.occupancy, c.baseline_occupancy);
    lower(e.variant_profile.occupancy, c.variant_occupancy);
    if (!c.bytes || !c.baseline_us || !c.variant_us) {
      complete = false;
      continue;
    }
    bytes += static_cast<double>(*c.bytes);
    base_us += c.baseline_us->median;
    var_us += c.variant_us->median;
  }
  if (!complete) return;
  double copy_gbs = e.gpu ? e.gpu->copy_bandwidth_gbs : 0;
  set_bandwidth(e.baseline_profile, bytes, base_us, copy_gbs);
  set_bandwidth(e.variant_profile, bytes, var_us, copy_gbs);
}

void add_ncu_reading(ProfileFacts& facts, const std::map<std::string, double>& reading, double fma_peak_gflops) {
  for (const auto& m : kNcuMetrics)
    if (auto it = reading.find(m.name); m.percent && it != reading.end()) facts.ncu[m.name] = it->second;
  auto count = [&](const char* name) -> std::optional<double> {
    auto it = reading.find(name);
    if (it == reading.end()) return std::nullopt;
    return it->second;
  };
  auto ffma = count("ffma"), fadd = count("fadd"), fmul = count("fmul"), ns = count("duration_ns");
  if (!ffma || !fadd || !fmul || !ns || !(*ns > 0)) return;
  facts.achieved_gflops = (2 * *ffma + *fadd + *fmul) / *ns;  // operations per nanosecond = GFLOP/s
  if (fma_peak_gflops > 0) facts.fma_share = *facts.achieved_gflops / fma_peak_gflops;
}

}  // namespace stark::harness
