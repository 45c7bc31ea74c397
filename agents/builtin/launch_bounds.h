// Polish for a kernel launched with a constant block size: __launch_bounds__,
// so the compiler fits its registers to the occupancy.
#ifndef STARK_AGENTS_BUILTIN_LAUNCH_BOUNDS_H
#define STARK_AGENTS_BUILTIN_LAUNCH_BOUNDS_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

/// __launch_bounds__(block) when the block size is a known constant.
class LaunchBounds : public Strategy {
 public:
  std::string name() const override { return "launch-bounds"; }
  StrategyKind kind() const override { return StrategyKind::Polish; }
  std::string summary() const override {
    return "__launch_bounds__ for the block size, so registers fit the occupancy";
  }
  std::vector<Limiter> eases() const override { return {Limiter::Occupancy, Limiter::Spills}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_LAUNCH_BOUNDS_H
