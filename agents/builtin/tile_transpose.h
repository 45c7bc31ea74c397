// A 2-D copy whose reads run along x and writes along y (a transpose, or any
// permuting copy) goes through a 32x33 tile in shared memory, so both the
// reads and the writes are coalesced.
#ifndef STARK_AGENTS_BUILTIN_TILE_TRANSPOSE_H
#define STARK_AGENTS_BUILTIN_TILE_TRANSPOSE_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

class TileTranspose : public Strategy {
 public:
  std::string name() const override { return "tile-transpose"; }
  StrategyKind kind() const override { return StrategyKind::Structural; }
  std::string summary() const override {
    return "2-D permuting copy -> shared-memory tile (padded against bank conflicts), coalesced reads and writes";
  }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_TILE_TRANSPOSE_H
