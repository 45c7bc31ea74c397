// Polish for loops: #pragma unroll, for instruction-level parallelism.
#ifndef STARK_AGENTS_BUILTIN_UNROLL_H
#define STARK_AGENTS_BUILTIN_UNROLL_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

/// #pragma unroll on loops with a constant trip count, or unroll by a factor.
class Unroll : public Strategy {
 public:
  std::string name() const override { return "unroll"; }
  StrategyKind kind() const override { return StrategyKind::Polish; }
  std::string summary() const override { return "unrolled loops for instruction-level parallelism"; }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess, Limiter::Compute}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_UNROLL_H
