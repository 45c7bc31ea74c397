// One block per row instead of one thread per row: for kernels where each
// thread owns a row and walks it in loops, optionally reducing (softmax,
// layer norm, row sums). Every row loop becomes a block-strided loop and
// every reduction it carries is finished with a block-wide reduction, so
// reads of a row are coalesced and a row is spread over a whole block.
#ifndef STARK_AGENTS_BUILTIN_BLOCK_PER_ROW_H
#define STARK_AGENTS_BUILTIN_BLOCK_PER_ROW_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

class BlockPerRow : public Strategy {
 public:
  std::string name() const override { return "block-per-row"; }
  StrategyKind kind() const override { return StrategyKind::Structural; }
  std::string summary() const override {
    return "one block per row: strided row loops, reductions finished with warp shuffles";
  }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess, Limiter::Occupancy}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_BLOCK_PER_ROW_H
