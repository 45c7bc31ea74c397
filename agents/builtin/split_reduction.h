// Several threads share one output's reduction: for kernels where each
// thread owns an output (a column of a matrix reduced over its rows, a
// position normalised over its channels) and walks a long loop alone, so
// that a launch has too few threads to keep the memory system busy. A block
// axis the kernel leaves alone (y, else z) gets `split` threads per output:
// each takes every split-th iteration of the output's loops, partial
// results are combined through shared memory in one fixed order, and the
// output is stored once. Neighbouring outputs stay on neighbouring threads
// of x, so each row of the loop is still read by whole warps at once.
#ifndef STARK_AGENTS_BUILTIN_SPLIT_REDUCTION_H
#define STARK_AGENTS_BUILTIN_SPLIT_REDUCTION_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

class SplitReduction : public Strategy {
 public:
  std::string name() const override { return "split-reduction"; }
  StrategyKind kind() const override { return StrategyKind::Structural; }
  std::string summary() const override {
    return "threads along a free block axis split each output's reduction loop, partials combined in shared memory";
  }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess, Limiter::Occupancy}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_SPLIT_REDUCTION_H
