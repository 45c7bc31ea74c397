// Profile facts (docs/design.md, "Profile facts"): what a compiled kernel
// costs the GPU beyond its time. The evaluator fills them in once per
// evaluation, for the original and the candidate; the search keeps them on
// its nodes, and every role (LLM prompts, the built-in planner) reads the
// same facts.
#ifndef STARK_CORE_PROFILE_H
#define STARK_CORE_PROFILE_H

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace stark {

/// What nvcc gave one compiled instantiation, read from its cubin.
struct KernelResources {
  std::string function;  // mangled name
  int registers = 0;     // per thread
  /// Local memory per thread (the stack frame): register spills and local
  /// arrays the compiler could not keep in registers. 0 means neither.
  int stack_bytes = 0;
  int shared_bytes = 0;  // static shared memory per block (dynamic comes from the launch)
  bool operator==(const KernelResources&) const = default;
};

/// The facts about one compiled kernel, original or candidate. Each is
/// absent when it could not be known (no GPU, no bytes, no ncu).
struct ProfileFacts {
  std::vector<KernelResources> resources;  // one per instantiation judged
  /// Active warps per multiprocessor over the most the GPU allows, at the
  /// captured launch shapes (the lowest over them): CUDA's occupancy calculator.
  std::optional<double> occupancy;
  /// The bytes the captured launches must move through DRAM over their time.
  std::optional<double> achieved_gbs;
  /// achieved_gbs over the copy bandwidth measured on the same GPU: the memory roof.
  std::optional<double> roof_share;
  /// FP32 operations per second (an FMA counts two) over one profiled launch:
  /// the operations ncu counted over the time it measured. Where ncu ran.
  std::optional<double> achieved_gflops;
  /// achieved_gflops over the FMA peak measured on the same GPU: the compute roof.
  std::optional<double> fma_share;
  /// Nsight Compute's throughput metrics (name -> percent of peak), where ncu ran.
  std::map<std::string, double> ncu;

  bool empty() const { return resources.empty() && !occupancy && !achieved_gbs && !achieved_gflops && ncu.empty(); }
  /// The largest of each resource over the instantiations (nullopt: none read).
  std::optional<KernelResources> worst() const;
  bool operator==(const ProfileFacts&) const = default;
};

/// One line for people and prompts: "32 registers, 688 B stack (spills or
/// local arrays), 4.0 KiB static shared; occupancy 50%; 2.1 TB/s = 62% of the
/// memory roof; 310 GFLOP/s = 0.6% of the FMA peak; ncu: dram 61%, sm 12%".
/// Empty when there are no facts.
std::string describe(const ProfileFacts& facts);

void to_json(nlohmann::json& j, const KernelResources& r);
void from_json(const nlohmann::json& j, KernelResources& r);
void to_json(nlohmann::json& j, const ProfileFacts& p);
void from_json(const nlohmann::json& j, ProfileFacts& p);

}  // namespace stark

#endif  // STARK_CORE_PROFILE_H
