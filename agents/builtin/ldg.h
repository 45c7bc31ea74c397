// Polish after restrict: loads through const __restrict__ pointers take the
// read-only data path (__ldg).
#ifndef STARK_AGENTS_BUILTIN_LDG_H
#define STARK_AGENTS_BUILTIN_LDG_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

/// Loads through `const T* __restrict__` parameters as __ldg (the read-only
/// data path, whether or not the compiler proves it may). Only after
/// __restrict__, whose no-aliasing assumption the evaluator checks on every
/// capture and the report states: a buffer written through another pointer
/// must not be read through the read-only path.
class Ldg : public Strategy {
 public:
  std::string name() const override { return "ldg"; }
  StrategyKind kind() const override { return StrategyKind::Polish; }
  std::string summary() const override { return "__ldg loads through const __restrict__ pointers"; }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_LDG_H
