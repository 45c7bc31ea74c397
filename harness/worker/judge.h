// Judging one launch of a candidate against the original's result on the
// same inputs, and deciding which buffers the original never reads (those are
// poisoned for every candidate run, so an answer left in memory by an earlier
// launch can never pass). Host code only: the worker feeds it snapshots.
#ifndef STARK_HARNESS_WORKER_JUDGE_H
#define STARK_HARNESS_WORKER_JUDGE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/common/dtype.h"
#include "harness/worker/memory.h"

namespace stark::harness {

/// What the judge knows of each buffer.
struct BufferInfo {
  std::string name;  // the argument name(s) pointing into it: "y", "x/y"
  DType dtype;
  Tolerance tolerance;
  bool writable = true;  // some non-const pointer points into it
};

struct Judgement {
  std::vector<std::string> wrong;   // outputs out of tolerance (correctness-like checks)
  std::vector<std::string> inputs;  // memory the original leaves alone but the candidate changed
  std::vector<std::string> guards;  // writes outside buffers
  double max_abs_err = 0;
  double max_rel_err = 0;
  bool ok() const { return wrong.empty() && inputs.empty() && guards.empty(); }
};

/// `before`: memory as set up before both launches; `reference`: the
/// original's result; `got`: the candidate's. Buffers the original changed
/// are compared within tolerance; the others must stay as they were (within
/// tolerance only when writable and rewritten with equal values).
Judgement judge(const std::vector<BufferInfo>& info, const std::vector<std::string>& before, const Memory& reference,
                const Memory& got, std::optional<uint8_t> poison);

/// Whether the original ignores the prior contents of buffer b: `normal` is
/// its result with all inputs restored, `poisoned` with buffer b filled with
/// `poison`. Unread when every lane of b is either still poison or equal
/// (within tolerance) to the normal result, and every other buffer matches.
bool unread(const std::vector<BufferInfo>& info, int b, const Memory& normal, const Memory& poisoned, uint8_t poison);

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_JUDGE_H
