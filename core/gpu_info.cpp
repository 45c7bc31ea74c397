#include "core/gpu_info.h"

#include <nlohmann/json.hpp>

namespace stark {

void to_json(nlohmann::json& j, const GpuInfo& g) {
  j = {{"name", g.name}, {"sm", g.sm}, {"driver", g.driver}, {"cuda", g.cuda}};
  if (g.sm_count > 0) j["sm_count"] = g.sm_count;
  if (g.mem_bandwidth_gbs > 0) j["mem_bandwidth_gbs"] = g.mem_bandwidth_gbs;
  if (g.copy_bandwidth_gbs > 0) j["copy_bandwidth_gbs"] = g.copy_bandwidth_gbs;
  if (g.fma_peak_gflops > 0) j["fma_peak_gflops"] = g.fma_peak_gflops;
}

void from_json(const nlohmann::json& j, GpuInfo& g) {
  g = {};
  g.name = j.value("name", "");
  g.sm = j.value("sm", "");
  g.driver = j.value("driver", "");
  g.cuda = j.value("cuda", "");
  g.sm_count = j.value("sm_count", 0);
  g.mem_bandwidth_gbs = j.value("mem_bandwidth_gbs", 0.0);
  g.copy_bandwidth_gbs = j.value("copy_bandwidth_gbs", 0.0);
  g.fma_peak_gflops = j.value("fma_peak_gflops", 0.0);
}

}  // namespace stark
