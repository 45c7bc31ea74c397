// From a finished search to the kernel's entry in result.json: its status,
// figures, winner, checks, strategies and assumptions.
#ifndef STARK_PIPELINE_KERNEL_OUTCOME_H
#define STARK_PIPELINE_KERNEL_OUTCOME_H

#include "agents/search.h"
#include "core/manifest.h"
#include "core/result.h"

namespace stark {

/// A candidate counts as an improvement only above this speedup over the
/// original measured in the same evaluation (below it is timing noise).
inline constexpr double kMinSpeedup = 1.02;

/// improved: the fastest correct candidate beats the original by kMinSpeedup;
/// no_gain: the search ran, nothing beat it; untimed: no GPU to time on;
/// failed: the original itself could not be compiled or checked.
KernelResult kernel_result(const Kernel& kernel, const SearchOutcome& outcome);

}  // namespace stark

#endif  // STARK_PIPELINE_KERNEL_OUTCOME_H
