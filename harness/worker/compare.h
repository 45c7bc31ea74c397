// Comparing a candidate's buffer with the reference, element by element and
// by element type: integers and unknown types bit for bit, floating point
// within tolerance. An element passes when
//     |got - expected| <= atol + rtol * max(|expected|, rms(expected buffer))
// so values near zero in a buffer of large values are judged at the buffer's
// scale (cancellation), and a NaN passes only where the reference has one.
#ifndef STARK_HARNESS_WORKER_COMPARE_H
#define STARK_HARNESS_WORKER_COMPARE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "harness/common/dtype.h"

namespace stark::harness {

struct BufferComparison {
  bool ok = true;
  uint64_t elements = 0;     // lanes compared
  uint64_t mismatches = 0;   // lanes out of tolerance
  uint64_t left_poison = 0;  // of those, lanes still holding the poison pattern (never written)
  double max_abs_err = 0;
  double max_rel_err = 0;  // |got - expected| / max(|expected|, rms)
  int64_t first = -1;      // first mismatching lane
  double expected_first = 0;
  double got_first = 0;

  /// "y: 1024 of 1048576 elements differ (first at [12]: 3.5 expected, got 0), 1024 left unwritten; max rel err 1"
  std::string describe(std::string_view name) const;
};

/// Compares two equally long byte strings as arrays of `dtype`.
/// `poison`: the byte the buffer was filled with before the launch, if any.
BufferComparison compare_buffer(std::string_view expected, std::string_view got, const DType& dtype,
                                const Tolerance& tolerance, std::optional<uint8_t> poison = std::nullopt);

/// Lanes that are bit-for-bit different (for inputs that must not change).
uint64_t count_changed_bytes(std::string_view before, std::string_view after);

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_COMPARE_H
