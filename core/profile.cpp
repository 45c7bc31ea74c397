#include "core/profile.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/json_optional.h"
#include "core/units.h"

namespace stark {

using json = nlohmann::json;

namespace {

std::string bytes_text(int b) {
  if (b >= 1024) return fmt::format("{:.1f} KiB", b / 1024.0);
  return fmt::format("{} B", b);
}

}  // namespace

std::optional<KernelResources> ProfileFacts::worst() const {
  if (resources.empty()) return std::nullopt;
  KernelResources w = resources.front();
  for (const auto& r : resources) {
    w.registers = std::max(w.registers, r.registers);
    w.stack_bytes = std::max(w.stack_bytes, r.stack_bytes);
    w.shared_bytes = std::max(w.shared_bytes, r.shared_bytes);
  }
  if (resources.size() > 1) w.function.clear();
  return w;
}

std::string describe(const ProfileFacts& f) {
  std::vector<std::string> parts;
  if (auto w = f.worst()) {
    std::string r = fmt::format("{} registers", w->registers);
    r += w->stack_bytes > 0 ? fmt::format(", {} stack (spills or local arrays)", bytes_text(w->stack_bytes))
                            : ", no stack (no spills)";
    if (w->shared_bytes > 0) r += fmt::format(", {} static shared", bytes_text(w->shared_bytes));
    if (f.resources.size() > 1) r += fmt::format(" (the most over {} instantiations)", f.resources.size());
    parts.push_back(r);
  }
  if (f.occupancy) parts.push_back(fmt::format("occupancy {}", format_share(*f.occupancy)));
  if (f.achieved_gbs) {
    std::string b = format_bandwidth(*f.achieved_gbs);
    if (f.roof_share) b += fmt::format(" = {} of the memory roof", format_share(*f.roof_share));
    parts.push_back(b);
  }
  if (f.achieved_gflops) {
    std::string c = *f.achieved_gflops > 0 ? format_flop_rate(*f.achieved_gflops) : "no FP32 arithmetic";
    if (f.fma_share && *f.achieved_gflops > 0) c += fmt::format(" = {} of the FMA peak", format_share(*f.fma_share));
    parts.push_back(c);
  }
  if (!f.ncu.empty()) {
    std::vector<std::string> m;
    for (const auto& [name, value] : f.ncu) m.push_back(fmt::format("{} {:.0f}%", name, value));
    parts.push_back("ncu: " + fmt::format("{}", fmt::join(m, ", ")));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

void to_json(json& j, const KernelResources& r) {
  j = {{"function", r.function},
       {"registers", r.registers},
       {"stack_bytes", r.stack_bytes},
       {"shared_bytes", r.shared_bytes}};
}

void from_json(const json& j, KernelResources& r) {
  r.function = j.value("function", "");
  r.registers = j.value("registers", 0);
  r.stack_bytes = j.value("stack_bytes", 0);
  r.shared_bytes = j.value("shared_bytes", 0);
}

void to_json(json& j, const ProfileFacts& p) {
  j = json::object();
  if (!p.resources.empty()) j["resources"] = p.resources;
  if (p.occupancy) j["occupancy"] = *p.occupancy;
  if (p.achieved_gbs) j["achieved_gbs"] = *p.achieved_gbs;
  if (p.roof_share) j["roof_share"] = *p.roof_share;
  if (p.achieved_gflops) j["achieved_gflops"] = *p.achieved_gflops;
  if (p.fma_share) j["fma_share"] = *p.fma_share;
  if (!p.ncu.empty()) j["ncu"] = p.ncu;
}

void from_json(const json& j, ProfileFacts& p) {
  p = {};
  p.resources = j.value("resources", std::vector<KernelResources>{});
  p.occupancy = optional_field<double>(j, "occupancy");
  p.achieved_gbs = optional_field<double>(j, "achieved_gbs");
  p.roof_share = optional_field<double>(j, "roof_share");
  p.achieved_gflops = optional_field<double>(j, "achieved_gflops");
  p.fma_share = optional_field<double>(j, "fma_share");
  p.ncu = j.value("ncu", std::map<std::string, double>{});
}

}  // namespace stark
