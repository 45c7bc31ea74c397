// A row scan over a block instead of one thread: for kernels where each
// thread owns a row and walks it once, carrying a running sum or product
// that it writes out on the way (an inclusive or exclusive prefix sum, a
// reversed one, a running product). The row is cut into tiles of the
// block's size; each thread takes one element of a tile, a block-wide scan
// with warp shuffles gives it the running value before its element, and
// it runs the original loop body once with that value. The running value
// carries from tile to tile, so reads and writes of a row are coalesced.
#ifndef STARK_AGENTS_BUILTIN_ROW_SCAN_H
#define STARK_AGENTS_BUILTIN_ROW_SCAN_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

class RowScan : public Strategy {
 public:
  std::string name() const override { return "row-scan"; }
  StrategyKind kind() const override { return StrategyKind::Structural; }
  std::string summary() const override {
    return "one block per row scanning tiles with warp shuffles, the running value carried between tiles";
  }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess, Limiter::Occupancy}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_ROW_SCAN_H
