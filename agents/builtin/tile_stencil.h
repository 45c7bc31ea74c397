// A 2-D point-per-thread kernel that reads a const input at its own point
// and at neighbours a row or column or two away (a Jacobi step, a blur, a
// 5- or 9-point stencil) reads each input element up to nine times from the
// caches. This loads the block's points with their halo into shared memory
// once, before any thread can leave, and the reads come from the tile. Each
// thread can cover R points down a column (the tile is R blocks tall), which
// shrinks the halo's share of the loads. The tile holds exactly the elements
// the original's linear indices name (a column past the edge wraps to the
// next row as `in[i + 1]` does), so boundary handling is the user's own.
#ifndef STARK_AGENTS_BUILTIN_TILE_STENCIL_H
#define STARK_AGENTS_BUILTIN_TILE_STENCIL_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

class TileStencil : public Strategy {
 public:
  std::string name() const override { return "tile-stencil"; }
  StrategyKind kind() const override { return StrategyKind::Structural; }
  std::string summary() const override {
    return "2-D stencil -> the block's points and halo in a shared-memory tile, R points per thread down a column";
  }
  std::vector<Limiter> eases() const override { return {Limiter::Traffic}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_TILE_STENCIL_H
