#include "harness/worker/fuzz.h"

#include <string>
#include <cstdint>
#include <cmath>

namespace stark::harness {

uint64_t SplitMix64::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

bool fuzz_floats(std::string& bytes, const DType& dtype, uint64_t seed) {
  if (!dtype.is_float()) return false;
  SplitMix64 rng(seed);
  const size_t lanes = bytes.size() / dtype.scalar_size();
  for (size_t i = 0; i < lanes; ++i) {
    double v = load_lane(bytes.data(), dtype.kind, i);
    double factor = 0.75 + 0.5 * rng.uniform();
    if (std::isfinite(v) && v != 0) store_lane(bytes.data(), dtype.kind, i, v * factor);
  }
  return true;
}

std::string random_data(uint64_t size, const DType& dtype, uint64_t seed) {
  std::string out(size, '\0');
  SplitMix64 rng(seed);
  const size_t lanes = size / dtype.scalar_size();
  if (dtype.kind == ScalarKind::Bytes) {
    for (auto& c : out) c = static_cast<char>(rng.next());
    return out;
  }
  for (size_t i = 0; i < lanes; ++i) {
    double v;
    if (dtype.is_float()) v = 2.0 * rng.uniform() - 1.0;
    else if (dtype.kind == ScalarKind::Bool) v = static_cast<double>(rng.next() & 1);
    else v = static_cast<double>(rng.next() % 100);
    store_lane(out.data(), dtype.kind, i, v);
  }
  return out;
}

}  // namespace stark::harness
