// A dot-product loop per output element (naive matrix multiplication:
// acc += A[row, k] * B[k, col]) becomes a blocked kernel: tiles of A and B
// staged in shared memory, each thread computing a TM x TN block of outputs
// in registers. The user's index expressions load the tiles and the user's
// epilogue (what is done with acc) writes the results.
#ifndef STARK_AGENTS_BUILTIN_TILE_MATMUL_H
#define STARK_AGENTS_BUILTIN_TILE_MATMUL_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

class TileMatmul : public Strategy {
 public:
  std::string name() const override { return "tile-matmul"; }
  StrategyKind kind() const override { return StrategyKind::Structural; }
  std::string summary() const override {
    return "dot-product per output -> shared-memory tiles of A and B, register blocking of outputs per thread";
  }
  std::vector<Limiter> eases() const override { return {Limiter::Traffic, Limiter::Compute}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_TILE_MATMUL_H
