// A sum into one address by atomicAdd from every thread becomes a
// grid-stride loop accumulating in a register, a block-wide reduction with
// warp shuffles, and one atomicAdd per block.
#ifndef STARK_AGENTS_BUILTIN_BLOCK_REDUCE_H
#define STARK_AGENTS_BUILTIN_BLOCK_REDUCE_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

class BlockReduce : public Strategy {
 public:
  std::string name() const override { return "block-reduce"; }
  StrategyKind kind() const override { return StrategyKind::Structural; }
  std::string summary() const override {
    return "atomic accumulation into one address -> per-thread sums, warp-shuffle block reduction, one atomic per "
           "block";
  }
  std::vector<Limiter> eases() const override { return {Limiter::Traffic}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_BLOCK_REDUCE_H
