// A second problem size for judging a candidate: the captured launch with
// its integer size arguments made smaller, on the same buffers. A candidate
// tuned to the captured sizes (a loop bound written as the captured value,
// a tile count that assumes it) computes the wrong answer there, while the
// original, run at that size, is the oracle. The buffers keep their captured
// sizes, so the original stays inside them (docs/threat-model.md, "Captured
// sizes").
#ifndef STARK_HARNESS_WORKER_OTHER_SIZE_H
#define STARK_HARNESS_WORKER_OTHER_SIZE_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/expected.h"
#include "harness/store/capture.h"
#include "harness/worker/launch_config.h"
#include "harness/worker/protocol.h"

namespace stark::harness {

/// The captured launch at a smaller size.
struct OtherSize {
  Capture capture;                        // the capture with the smaller arguments (for launch expressions)
  std::map<size_t, std::string> scalars;  // argument index -> its new bytes, for the replay
  LaunchDims original_dims;               // the original's launch there: grids scaled where they follow a size
  std::string describe;                   // "n 4194304 -> 3145728; grid.x 16384 -> 12288"
};

/// Integer arguments (scalars and integer fields of structs passed by value)
/// whose values make up a buffer's extent in elements (the extent equals one
/// of them, or a product of two or three) are sizes. Each size value v is
/// replaced, wherever it occurs, by a smaller one that keeps v's power-of-two
/// factors up to a block's worth (so vector loads stay aligned and exact
/// grids stay exact). A grid axis that follows a size (grid = ceil(v / d)
/// for d = 1, a power of two, or the block times a power of two) follows it
/// down. An error says why no smaller size exists.
Expected<OtherSize> other_size(const Capture& capture, const std::vector<ParamSpec>& params);

/// The smaller value a size v becomes (v itself when there is none).
int64_t smaller_size_value(int64_t v);

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_OTHER_SIZE_H
