// Keeps a row in registers across the passes of a block-per-row kernel:
// softmax and layer norm read each element of their row two or three times
// (maximum, sum, normalise). After block-per-row every pass is a block-strided
// loop `for (c = threadIdx.x; c < n; c += blockDim.x)` over the same row, so a
// thread visits the same elements in every pass. This loads a thread's first
// K elements of a row pointer read through `const` once, all K loads in
// flight, and the passes read them from a register array (fully unrolled);
// elements beyond K * blockDim.x keep the original loop. Each thread visits
// its elements in the same order as before, so sums are bit-identical. A
// costly call the passes repeat on an element (softmax's expf(x - max)) is
// computed once and kept in the array (value_reuse.h), also bit-identical.
#ifndef STARK_AGENTS_BUILTIN_ROW_CACHE_H
#define STARK_AGENTS_BUILTIN_ROW_CACHE_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

class RowCache : public Strategy {
 public:
  std::string name() const override { return "row-cache"; }
  StrategyKind kind() const override { return StrategyKind::Structural; }
  std::string summary() const override {
    return "a row read in several block-strided passes, loaded once into registers (K per thread)";
  }
  std::vector<Limiter> eases() const override { return {Limiter::Traffic}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_ROW_CACHE_H
