// What the capture library records, written by `stark capture` before it runs
// the test command and read by every process the command starts: the store,
// its limits, and for each manifest kernel its device names, parameter layout
// and module variables. Plus the pure decisions of the capture library
// (refusals known from the signature, argument layout, shape keys), kept here
// so they are tested without a GPU.
#ifndef STARK_HARNESS_CAPTURE_CAPTURE_PLAN_H
#define STARK_HARNESS_CAPTURE_CAPTURE_PLAN_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/expected.h"
#include "core/manifest.h"
#include "harness/store/capture_store.h"
#include "harness/worker/protocol.h"

namespace stark::harness {

inline constexpr const char* kCapturePlanSchema = "stark.capture-plan/1";
/// Environment variable naming the plan file in the processes under capture.
inline constexpr const char* kCapturePlanEnv = "STARK_CAPTURE_PLAN";

struct PlanInstantiation {
  std::string kernel;  // manifest id
  std::string mangled;
  std::vector<ParamSpec> params;
  std::vector<std::string> globals;  // module-scope variables of its translation unit
  std::string refusal;               // non-empty: never recorded, for this reason
  bool operator==(const PlanInstantiation&) const = default;
};

struct CapturePlan {
  std::string store;
  StoreLimits limits;
  std::optional<uint64_t> device_stage_bytes;  // CaptureOptions::device_stage
  std::vector<PlanInstantiation> kernels;
  const PlanInstantiation* find(std::string_view mangled) const;
  bool operator==(const CapturePlan&) const = default;
};

void to_json(nlohmann::json& j, const CapturePlan& p);
void from_json(const nlohmann::json& j, CapturePlan& p);
Expected<CapturePlan> load_plan(const std::string& path);

/// Why launches of a kernel with these parameters can never be recorded
/// ("" when they can): textures and surfaces, pointers to pointers.
std::string static_refusal(const std::vector<ParamSpec>& params);

/// The module variables a capture of a kernel records: of those its module
/// holds (`in_module`, from the cubin), the ones the scan found it reaching
/// (Kernel::module_variables). All of them when the scan was not sure, or
/// when it names one the module lacks (a name spelled differently must never
/// drop a variable the kernel uses); then `why_all` says so.
std::vector<std::string> recorded_globals(const std::optional<std::vector<std::string>>& reached,
                                          const std::vector<std::string>& in_module, std::string* why_all = nullptr);

/// Byte offsets of the parameters in a packed argument buffer (the `extra`
/// form of cuLaunchKernel), from the sizes and natural alignments.
std::vector<size_t> packed_offsets(const std::vector<ParamSpec>& params);

/// The key that tells launches apart: launch shape, scalar and struct
/// values, and the size of each buffer and the argument's offset in it.
std::string shape_key(const std::string& mangled, const LaunchShape& launch, const std::vector<CapturedArg>& args,
                      const std::vector<uint64_t>& buffer_sizes);

/// The offsets of 8-byte words in a struct argument that could hold a
/// pointer (checked against the driver at capture time).
std::vector<size_t> pointer_slots(size_t size);

}  // namespace stark::harness

#endif  // STARK_HARNESS_CAPTURE_CAPTURE_PLAN_H
