// Polish for single-precision math calls: the fast intrinsics (__expf,
// __logf...), accepted only within the tolerance.
#ifndef STARK_AGENTS_BUILTIN_FAST_MATH_H
#define STARK_AGENTS_BUILTIN_FAST_MATH_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

/// expf -> __expf and friends (checked against the tolerance like any candidate).
class FastMath : public Strategy {
 public:
  std::string name() const override { return "fast-math"; }
  StrategyKind kind() const override { return StrategyKind::Polish; }
  std::string summary() const override { return "fast intrinsics (__expf, __logf...) within the tolerance"; }
  std::vector<Limiter> eases() const override { return {Limiter::Compute}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_FAST_MATH_H
