// Device helper functions the strategies put before a kernel: warp- and
// block-wide reductions with warp shuffles. Every helper is static and
// named after its kernel, so two rewritten kernels in one file never clash.
#ifndef STARK_AGENTS_BUILTIN_DEVICE_HELPERS_H
#define STARK_AGENTS_BUILTIN_DEVICE_HELPERS_H

#include <string>

namespace stark::builtin {

/// The reduction a helper computes.
enum class ReduceOp { Sum, Max, Min };

/// Source of `static __device__ T <name>(T v)`: the block-wide result of op
/// over v, returned to every thread. Every thread of the block must call it;
/// blockDim.x must be a multiple of 32 and at most 1024 (blockDim.y = z = 1).
std::string block_reduce_helper(const std::string& name, const std::string& type, ReduceOp op);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_DEVICE_HELPERS_H
