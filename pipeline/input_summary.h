// The recorded inputs of a kernel as the roles see them: one line per
// capture with its launch shape, scalar values and buffer sizes.
#ifndef STARK_PIPELINE_INPUT_SUMMARY_H
#define STARK_PIPELINE_INPUT_SUMMARY_H

#include <filesystem>
#include <string>
#include <vector>

#include "agents/team.h"
#include "core/manifest.h"

namespace stark {

/// Lines like "grid (262144,1,1) block (256,1,1): n=67108864, a=2; x 256 MiB f32, y 256 MiB f32"
/// (at most max_lines) and every capture's integer scalars ({n: 67108864}).
/// Empty when the store has no capture of the kernel (or no store exists).
CapturedInputs describe_inputs(const std::filesystem::path& store, const Kernel& kernel, size_t max_lines = 6);

/// Every capture of the kernel as "<mangled> <shape key>" (launch, scalar
/// values, buffer sizes), for the result cache's key. Empty without a store.
std::vector<std::string> capture_shapes(const std::filesystem::path& store, const Kernel& kernel);

}  // namespace stark

#endif  // STARK_PIPELINE_INPUT_SUMMARY_H
