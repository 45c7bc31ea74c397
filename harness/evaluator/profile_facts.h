// Fills an evaluation's profile facts (core/profile.h) from what the
// evaluator already has in hand: the two cubins it compiled and the worker's
// per-capture figures. Nothing here runs anything.
#ifndef STARK_HARNESS_EVALUATOR_PROFILE_FACTS_H
#define STARK_HARNESS_EVALUATOR_PROFILE_FACTS_H

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/evaluation.h"
#include "core/profile.h"
#include "harness/common/cubin_info.h"

namespace stark::harness {

/// The resources of the instantiations named in `judged` (mangled), in the
/// cubin's order; an instantiation whose resources the cubin lacks is left out.
std::vector<KernelResources> cubin_resources(const CubinInfo& cubin, const std::set<std::string>& judged);

/// Occupancy (the lowest over the captures) and achieved bandwidth for both
/// kernels from `e.captures`; the roof share needs the GPU's copy bandwidth.
/// Bandwidth is set only when every capture has its bytes and both times.
void add_measured_facts(Evaluation& e);

/// ncu's reading of one launch (short names, base units: harness/evaluator/
/// ncu.h) into `facts`: the throughput percentages as they are, and the FP32
/// FLOP rate (2 per FMA, 1 per add or multiply, over the launch's duration)
/// with its share of `fma_peak_gflops` where that is known.
void add_ncu_reading(ProfileFacts& facts, const std::map<std::string, double>& reading, double fma_peak_gflops);

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_PROFILE_FACTS_H
