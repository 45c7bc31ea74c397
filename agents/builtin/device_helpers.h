// Device helper functions the strategies put before a kernel: warp- and
// block-wide reductions with warp shuffles, row loads and stores in 16-byte
// groups. Every helper is static and named after its kernel, so two
// rewritten kernels in one file never clash.
#ifndef STARK_AGENTS_BUILTIN_DEVICE_HELPERS_H
#define STARK_AGENTS_BUILTIN_DEVICE_HELPERS_H

#include <string>

#include "clang_tool/kernel_analysis.h"

namespace stark::builtin {

/// Source of `static __device__ T <name>(T v)`: the block-wide result of op
/// over v, returned to every thread. Every thread of the block must call it;
/// blockDim.x must be a multiple of 32 and at most 1024 (blockDim.y = z = 1).
std::string block_reduce_helper(const std::string& name, const std::string& type, ReduceOp op);

/// Source of two templates for row-cache's 16-byte groups: `load` fills a
/// thread's K slots of a row of n, group g holding the W adjacent columns
/// from (threadIdx.x + g * blockDim.x) * W (one vector load where the row is
/// 16-byte aligned, element by element otherwise and at the row's end);
/// `store` writes one group's W values back the same way.
std::string row_group_helpers(const std::string& load, const std::string& store);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_DEVICE_HELPERS_H
