// Which GPU a figure was measured on.
#ifndef STARK_CORE_GPU_INFO_H
#define STARK_CORE_GPU_INFO_H

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace stark {

struct GpuInfo {
  std::string name;              // "NVIDIA H200"
  std::string sm;                // "90"
  std::string driver;            // "580.159.04"
  std::string cuda;              // "13.0"
  int sm_count = 0;              // extension: multiprocessors
  double mem_bandwidth_gbs = 0;  // extension: peak DRAM bandwidth (GB/s), 0 = unknown
  /// Extension: device-to-device copy bandwidth (GB/s, read plus write) the
  /// worker measured when it started: the memory roof kernels are held to.
  double copy_bandwidth_gbs = 0;
  /// Extension: FP32 fused multiply-add throughput (GFLOP/s, an FMA counted
  /// as two) the worker measured when it started: the compute roof.
  double fma_peak_gflops = 0;
  bool operator==(const GpuInfo&) const = default;
};

void to_json(nlohmann::json& j, const GpuInfo& g);
void from_json(const nlohmann::json& j, GpuInfo& g);

}  // namespace stark

#endif  // STARK_CORE_GPU_INFO_H
