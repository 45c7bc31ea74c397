// Small strategies that apply to most kernels and to the results of the
// structural ones: the launch shape of a 1-D or 2-D kernel, __launch_bounds__,
// __maxnreg__, __restrict__ pointers, read-only loads, fast math intrinsics
// and loop unrolling.
#ifndef STARK_AGENTS_BUILTIN_POLISH_H
#define STARK_AGENTS_BUILTIN_POLISH_H

#include "agents/builtin/strategy.h"

namespace stark::builtin {

/// A different block size for a 1-D kernel whose threads each cover one
/// index below a bound: the grid keeps covering the same range.
class LaunchShape : public Strategy {
 public:
  std::string name() const override { return "block-size"; }
  std::string summary() const override { return "another block size, the grid scaled to cover the same range"; }
  std::vector<Limiter> eases() const override { return {Limiter::Occupancy, Limiter::MemoryAccess}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

/// Another block shape for a 2-D kernel whose threads each cover one (x, y)
/// point checked against bounds on both axes: rows of 32 or more threads
/// read whole 128-byte lines where 16-wide blocks read half of one. The grid
/// covers at least the original range; the checks idle the rest.
class BlockShape2D : public Strategy {
 public:
  std::string name() const override { return "block-shape"; }
  std::string summary() const override { return "another 2-D block shape, the grid scaled to cover the same points"; }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess, Limiter::Occupancy}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

/// __launch_bounds__(block) when the block size is a known constant.
class LaunchBounds : public Strategy {
 public:
  std::string name() const override { return "launch-bounds"; }
  std::string summary() const override { return "__launch_bounds__ for the block size, so registers fit the occupancy"; }
  std::vector<Limiter> eases() const override { return {Limiter::Occupancy, Limiter::Spills}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

/// __maxnreg__(N): a register cap without a block size (a kernel launched
/// with several block sizes). nvcc refuses it together with
/// __launch_bounds__, so the two exclude each other.
class MaxRegisters : public Strategy {
 public:
  std::string name() const override { return "max-registers"; }
  std::string summary() const override { return "__maxnreg__, a register cap so more warps fit on an SM"; }
  std::vector<Limiter> eases() const override { return {Limiter::Occupancy}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

/// Loads through `const T* __restrict__` parameters as __ldg (the read-only
/// data path, whether or not the compiler proves it may). Only after
/// __restrict__, whose no-aliasing assumption the evaluator checks on every
/// capture and the report states: a buffer written through another pointer
/// must not be read through the read-only path.
class ReadOnlyLoads : public Strategy {
 public:
  std::string name() const override { return "ldg"; }
  std::string summary() const override { return "__ldg loads through const __restrict__ pointers"; }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

/// Top-level __restrict__ on the pointer parameters (an assumption that no
/// two of them alias: the evaluator checks every captured launch).
class RestrictPointers : public Strategy {
 public:
  std::string name() const override { return "restrict"; }
  std::string summary() const override { return "__restrict__ pointers, so loads can use the read-only path"; }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

/// expf -> __expf and friends (checked against the tolerance like any candidate).
class FastMath : public Strategy {
 public:
  std::string name() const override { return "fast-math"; }
  std::string summary() const override { return "fast intrinsics (__expf, __logf...) within the tolerance"; }
  std::vector<Limiter> eases() const override { return {Limiter::Compute}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

/// #pragma unroll on loops with a constant trip count, or unroll by a factor.
class UnrollLoops : public Strategy {
 public:
  std::string name() const override { return "unroll"; }
  std::string summary() const override { return "unrolled loops for instruction-level parallelism"; }
  std::vector<Limiter> eases() const override { return {Limiter::MemoryAccess, Limiter::Compute}; }
  std::vector<Params> candidates(const Subject& s) const override;
  Expected<Variant> apply(const Subject& s, const Params& p) const override;
};

/// The block size a variant launches with when it is a constant, else 0.
int64_t constant_block(const LaunchOverride& launch);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_POLISH_H
