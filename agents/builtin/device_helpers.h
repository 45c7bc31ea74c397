// Device helper functions the strategies put before a kernel: warp- and
// block-wide reductions with warp shuffles, row loads and stores in 16-byte
// groups. Every helper is static and named after its kernel, so two
// rewritten kernels in one file never clash.
#ifndef STARK_AGENTS_BUILTIN_DEVICE_HELPERS_H
#define STARK_AGENTS_BUILTIN_DEVICE_HELPERS_H

#include <string>

#include "clang_tool/kernel_analysis.h"

namespace stark::builtin {

/// "sum", "product", "maximum" or "minimum": for generated comments.
const char* reduce_op_name(ReduceOp op);

/// How the partial results of one accumulator combine: the operator, the
/// value type (which picks fmaxf or fmax) and, for a max or a min, whether a
/// NaN wins (every combine then keeps one).
struct ReduceKind {
  std::string type = "float";
  ReduceOp op = ReduceOp::Sum;
  bool nan_wins = false;
  /// "sum_f32", "max_nan_f64": what a helper's name says of it.
  std::string tag() const;
  auto operator<=>(const ReduceKind&) const = default;
};

/// The kind of r's partial results; `type` where r's accumulator type is not known.
ReduceKind reduce_kind(const Reduction& r, const std::string& type);

/// Source of `static __device__ T <name>(T v)`: the block-wide result of the
/// kind's op over v, returned to every thread. Every thread of the block
/// must call it; blockDim.x must be a multiple of 32 and at most 1024
/// (blockDim.y = z = 1).
std::string block_reduce_helper(const std::string& name, const ReduceKind& kind);

/// Source of `template <class V, class I> static __device__ void <name>(V& v, I& i)`:
/// the kind's op (a max or a min) of v over the block and i where it was
/// found, returned to every thread: of equal values the smallest place, as
/// a strict comparison in order keeps the first; where a NaN wins, a NaN
/// beats every number and the first NaN the others. Every thread of the
/// block must call it; blockDim.x must be a multiple of 32 and at most 1024
/// (blockDim.y = z = 1).
std::string block_arg_reduce_helper(const std::string& name, const ReduceKind& kind);

/// Source of `template <class C, class V> static __device__ void <name>(C& count, V& mean, V& m2)`:
/// Chan's combination of every thread's Welford part (the count of its
/// elements, their mean and sum of squared deviations) into the block's,
/// returned to every thread. A part of no elements adds nothing. Every
/// thread of the block must call it; blockDim.x must be a multiple of 32
/// and at most 1024 (blockDim.y = z = 1).
std::string block_welford_helper(const std::string& name);

/// Source of `template <class V> static __device__ V <name>(V v, V& total)`: op (a sum or a
/// product) over the v of the block's threads before this one, in thread
/// order (the identity for thread 0), with `total` set to op over the whole
/// block. Every thread of the block must call it; blockDim.x must be a
/// multiple of 32 and at most 1024 (blockDim.y = z = 1).
std::string block_scan_helper(const std::string& name, const std::string& type, ReduceOp op);

/// Source of `template <class V> static __device__ V <name>(V v)`: the
/// kind's op over the v of the threads that differ from this one only in
/// threadIdx.<axis> (axis 'y' or 'z'), combined in the same order for each
/// of them, so every one gets the same value. Every thread of the block must
/// call it; the block may have at most 1024 threads.
std::string split_combine_helper(const std::string& name, const ReduceKind& kind, char axis);

/// Source of `template <class V, class I> static __device__ void <name>(V& v, I& i)`:
/// the kind's op (a max or a min) over the v of the same threads as
/// split_combine_helper's, and i the place it was found: of equal values
/// the smallest place wins, as a strict comparison in order keeps the first;
/// where a NaN wins, a NaN beats every number and the first NaN the others.
std::string split_arg_combine_helper(const std::string& name, const ReduceKind& kind, char axis);

/// A short tag of a value type for helper names: f32, f64, t (anything else).
std::string type_tag(const std::string& type);

/// Source of two templates for row-cache's 16-byte groups: `load` fills a
/// thread's K slots of a row of n, group g holding the W adjacent columns
/// from (threadIdx.x + g * blockDim.x) * W (one vector load where the row is
/// 16-byte aligned, element by element otherwise and at the row's end);
/// `store` writes one group's W values back the same way.
std::string row_group_helpers(const std::string& load, const std::string& store);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_DEVICE_HELPERS_H
