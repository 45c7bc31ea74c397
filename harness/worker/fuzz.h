// Fuzzed inputs: the same launch on different data, so a candidate that only
// reproduces the captured answers (or specialises on captured scalar values)
// is caught. Only floating-point data is changed, and only by a factor in
// [0.75, 1.25) per element: signs, zeros, infinities and NaNs stay, so the
// data keeps its domain (positive stays positive), and sizes, indices and
// flags, which are integers, are never touched.
#ifndef STARK_HARNESS_WORKER_FUZZ_H
#define STARK_HARNESS_WORKER_FUZZ_H

#include <cstdint>
#include <string>

#include "harness/common/dtype.h"

namespace stark::harness {

/// A small deterministic generator (splitmix64): the same seed gives the same
/// inputs on every machine.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next();
  double uniform();  // [0, 1)
 private:
  uint64_t state_;
};

/// Scales each floating-point lane of `bytes` by a factor in [0.75, 1.25).
/// Returns false (and leaves `bytes` alone) for non-floating types.
bool fuzz_floats(std::string& bytes, const DType& dtype, uint64_t seed);

/// Random data for an input without a capture (annotation inputs): floats in
/// [-1, 1), integers in [0, 100), bools 0/1, other bytes uniform.
std::string random_data(uint64_t size, const DType& dtype, uint64_t seed);

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_FUZZ_H
