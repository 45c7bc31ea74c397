// Polish for a kernel with two or more pointer parameters: __restrict__ on
// them, so loads can use the read-only path.
#ifndef STARK_AGENTS_BUILTIN_RESTRICT_H
#define STARK_AGENTS_BUILTIN_RESTRICT_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

/// Top-level __restrict__ on the pointer parameters (an assumption that no
/// two of them alias: the evaluator checks every captured launch).
class Restrict : public Strategy {
 public:
  std::string name() const override { return "restrict"; }
  StrategyKind kind() const override { return StrategyKind::Polish; }
  std::string summary() const override { return "__restrict__ pointers, so loads can use the read-only path"; }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_RESTRICT_H
