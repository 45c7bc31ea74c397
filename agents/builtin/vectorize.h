// An elementwise kernel (each thread touches element i of its arrays, and
// only that) gets four consecutive elements per thread, loaded and stored as
// one aligned vector per array, with a scalar path for the tail and for
// misaligned pointers. Naive one-element-per-thread kernels issue 4-byte
// accesses; the wide ones are what reaches the DRAM bandwidth.
#ifndef STARK_AGENTS_BUILTIN_VECTORIZE_H
#define STARK_AGENTS_BUILTIN_VECTORIZE_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

class Vectorize : public Strategy {
 public:
  std::string name() const override { return "vectorize"; }
  StrategyKind kind() const override { return StrategyKind::Structural; }
  std::string summary() const override {
    return "four elements per thread through aligned vector loads and stores, scalar tail";
  }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_VECTORIZE_H
