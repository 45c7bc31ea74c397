#include "agents/builtin/limiter.h"

#include <fmt/format.h>

#include "core/units.h"

namespace stark::builtin {

namespace {

constexpr double kNearRoof = 0.6;
constexpr double kLowOccupancy = 0.5;

}  // namespace

const char* to_string(Limiter l) {
  switch (l) {
    case Limiter::Unknown: return "unknown";
    case Limiter::MemoryAccess: return "memory access";
    case Limiter::Traffic: return "memory traffic";
    case Limiter::Occupancy: return "occupancy";
    case Limiter::Spills: return "spills";
    case Limiter::Compute: return "compute";
  }
  return "unknown";
}

Diagnosis diagnose(const ProfileFacts& f) {
  // ncu, where it ran, tells compute from memory directly.
  auto sm = f.ncu.find("sm"), dram = f.ncu.find("dram");
  if (sm != f.ncu.end() && dram != f.ncu.end() && sm->second >= 60 && sm->second > dram->second)
    return {Limiter::Compute,
            fmt::format("ncu: the SM at {:.0f}% of its peak, DRAM at {:.0f}%", sm->second, dram->second)};
  if (f.fma_share && *f.fma_share >= kNearRoof && *f.fma_share > f.roof_share.value_or(0))
    return {Limiter::Compute, fmt::format("at {} of the FMA peak", format_share(*f.fma_share))};
  if (f.roof_share && *f.roof_share >= kNearRoof)
    return {Limiter::Traffic, fmt::format("at {} of the memory roof", format_share(*f.roof_share))};
  auto worst = f.worst();
  if (worst && worst->stack_bytes > 0)
    return {Limiter::Spills,
            fmt::format("{} bytes of stack per thread at {} registers", worst->stack_bytes, worst->registers)};
  if (f.occupancy && *f.occupancy < kLowOccupancy) {
    std::string why = fmt::format("occupancy {}", format_share(*f.occupancy));
    if (worst) why += fmt::format(" at {} registers", worst->registers);
    return {Limiter::Occupancy, why};
  }
  if (f.roof_share)
    return {Limiter::MemoryAccess,
            fmt::format("at {} of the memory roof{}", format_share(*f.roof_share),
                        f.occupancy ? fmt::format(" with occupancy {}", format_share(*f.occupancy)) : std::string())};
  return {};
}

}  // namespace stark::builtin
