// Polish for a 2-D point-per-thread kernel: another block shape, so rows of
// threads read whole 128-byte lines, the grid scaled to cover the same points.
#ifndef STARK_AGENTS_BUILTIN_BLOCK_SHAPE_H
#define STARK_AGENTS_BUILTIN_BLOCK_SHAPE_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

/// Another block shape for a 2-D kernel whose threads each cover one (x, y)
/// point checked against bounds on both axes: rows of 32 or more threads
/// read whole 128-byte lines where 16-wide blocks read half of one. The grid
/// covers at least the original range; the checks idle the rest.
class BlockShape : public Strategy {
 public:
  std::string name() const override { return "block-shape"; }
  StrategyKind kind() const override { return StrategyKind::Polish; }
  std::string summary() const override { return "another 2-D block shape, the grid scaled to cover the same points"; }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess, Limiter::Occupancy}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_BLOCK_SHAPE_H
