// What the strategies that turn a thread-per-row kernel into a
// block-per-row one share: recognising such a kernel (one thread index on
// x, checked against a row count made of parameters, nothing cooperative
// yet) and the edits every such rewrite needs (the row is the block's index,
// writes outside the row loops come from one thread, rows go to the grid's
// x).
#ifndef STARK_AGENTS_BUILTIN_ROW_KERNEL_H
#define STARK_AGENTS_BUILTIN_ROW_KERNEL_H

#include <optional>
#include <string>
#include <vector>

#include "agents/builtin/rewrite.h"
#include "clang_tool/kernel_analysis.h"
#include "core/expected.h"
#include "core/variant.h"

namespace stark::builtin {

/// Why the kernel is not a thread-per-row kernel whose rows could become
/// blocks, or nothing. Its loops are the caller's to judge.
std::optional<std::string> not_a_row_kernel(const KernelAnalysis& a);

/// The bound check on the row index (not_a_row_kernel found one).
const Guard& row_guard(const KernelAnalysis& a);

/// The row count as the launch can compute it: the row bound with each
/// local it names (declared at the top of the body with an initialiser,
/// never assigned again: `const int total = shape.n * shape.groups;`)
/// replaced by its initialiser in parentheses.
std::string row_count(const KernelAnalysis& a);

/// The accumulator of one of the loop's reductions that the loop also reads
/// outside that accumulator's own updates: a running value written out (a
/// scan) or feeding another update (Welford's mean).
std::optional<std::string> running_value_read(const Loop& l);

/// The edit that makes the row index the block's: "int row = blockIdx.x;",
/// or a grid-stride loop over rows by blocks.
Expected<TextEdit> row_from_block(const KernelAnalysis& a);

/// Writes outside loops would come from every thread of the block once a
/// row is a block: these edits leave them to thread 0. (Inside a guard or a
/// grid-stride loop every thread writes the same value: left as they are.)
std::vector<TextEdit> writes_from_one_thread(const KernelAnalysis& a);

/// Rows become blocks along x; whatever the kernel spread over y and z (a
/// batch, say) keeps its grid.
LaunchOverride rows_as_blocks(const KernelAnalysis& a, int64_t block);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_ROW_KERNEL_H
