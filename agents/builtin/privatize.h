// Scattered atomic increments into a small table (a histogram) go to a
// per-block copy in shared memory first; each block adds its copy to the
// global table once. Threads walk the input in a grid-stride loop so blocks
// are few and the flush is cheap.
#ifndef STARK_AGENTS_BUILTIN_PRIVATIZE_H
#define STARK_AGENTS_BUILTIN_PRIVATIZE_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

class Privatize : public Strategy {
 public:
  std::string name() const override { return "privatize"; }
  StrategyKind kind() const override { return StrategyKind::Structural; }
  std::string summary() const override {
    return "atomic scatter into a table -> per-block table in shared memory, flushed once per block";
  }
  std::vector<Limiter> eases() const override { return {Limiter::Traffic}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_PRIVATIZE_H
