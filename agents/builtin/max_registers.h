// Polish for a kernel without __launch_bounds__: a __maxnreg__ register cap,
// so more warps fit on an SM whatever the block size.
#ifndef STARK_AGENTS_BUILTIN_MAX_REGISTERS_H
#define STARK_AGENTS_BUILTIN_MAX_REGISTERS_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

/// __maxnreg__(N): a register cap without a block size (a kernel launched
/// with several block sizes). nvcc refuses it together with
/// __launch_bounds__, so the two exclude each other.
class MaxRegisters : public Strategy {
 public:
  std::string name() const override { return "max-registers"; }
  StrategyKind kind() const override { return StrategyKind::Polish; }
  std::string summary() const override { return "__maxnreg__, a register cap so more warps fit on an SM"; }
  std::vector<Limiter> eases() const override { return {Limiter::Occupancy}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_MAX_REGISTERS_H
