// Inputs for a kernel no test launches: a capture built from its annotation
// (docs/CONTRACTS.md): scalars from `args`, buffer sizes from `buffers`
// (element counts over the scalars), the launch from `grid`, `block` and
// `shmem`. Buffers hold seeded random data; there is no captured result, so
// the original kernel's own output on these inputs is the reference.
#ifndef STARK_HARNESS_CAPTURE_ANNOTATION_INPUTS_H
#define STARK_HARNESS_CAPTURE_ANNOTATION_INPUTS_H

#include <string>

#include "core/expected.h"
#include "core/manifest.h"
#include "harness/store/capture_store.h"

namespace stark::harness {

/// True when the annotation gives inputs (args or buffers).
bool has_annotation_inputs(const Kernel& kernel);

/// What to add to the annotation so the kernel gets inputs, as a hint:
/// STARK_OPTIMIZE("args=n=1048576", "buffers=x[n], y[n]", "grid=ceil_div(n, 256)", "block=256").
std::string annotation_hint(const Kernel& kernel);

/// Builds the capture (blobs written to `store`, index untouched). Errors
/// name the kernel and the missing or wrong key.
Expected<Capture> capture_from_annotation(const Kernel& kernel, CaptureStore& store);

}  // namespace stark::harness

#endif  // STARK_HARNESS_CAPTURE_ANNOTATION_INPUTS_H
