// What holds a kernel back, read from its profile facts (core/profile.h),
// and which strategies ease it: the built-in planner ranks its options by
// measurement, not by a fixed order alone (docs/design.md, "Profile facts").
#ifndef STARK_AGENTS_BUILTIN_LIMITER_H
#define STARK_AGENTS_BUILTIN_LIMITER_H

#include <string>

#include "core/profile.h"

namespace stark::builtin {

enum class Limiter {
  Unknown,       // not measured (no GPU), or nothing stands out
  MemoryAccess,  // far below the memory roof with warps to spare: accesses too narrow, scattered or too few in flight
  Traffic,       // near the memory roof: only moving fewer bytes helps
  Occupancy,     // few warps resident per multiprocessor
  Spills,        // a stack frame: registers spilled (or arrays kept) in local memory
  Compute,       // instruction-bound (near the FMA peak, or ncu: the SM busier than memory)
};

const char* to_string(Limiter l);

/// The limiter and, in words, the facts that name it ("at 84% of the memory
/// roof"); Unknown with an empty reason when the facts say nothing.
struct Diagnosis {
  Limiter limiter = Limiter::Unknown;
  std::string why;
};

/// Thresholds: a share of the memory roof of 60% or more is near it (the
/// copy kernel itself reaches about 90%); below half of the warps resident
/// is low occupancy; any stack bytes are a frame in local memory.
Diagnosis diagnose(const ProfileFacts& facts);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_LIMITER_H
