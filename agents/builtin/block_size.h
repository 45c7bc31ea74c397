// Polish for a 1-D kernel with a bound check: another block size, the grid
// scaled with it so the threads still cover the same range.
#ifndef STARK_AGENTS_BUILTIN_BLOCK_SIZE_H
#define STARK_AGENTS_BUILTIN_BLOCK_SIZE_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

/// A different block size for a 1-D kernel whose threads each cover one
/// index below a bound: the grid keeps covering the same range.
class BlockSize : public Strategy {
 public:
  std::string name() const override { return "block-size"; }
  StrategyKind kind() const override { return StrategyKind::Polish; }
  std::string summary() const override { return "another block size, the grid scaled to cover the same range"; }
  std::vector<Limiter> eases() const override { return {Limiter::Occupancy, Limiter::MemoryAccess}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_BLOCK_SIZE_H
