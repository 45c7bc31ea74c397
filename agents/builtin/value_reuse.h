// Computes a costly value of a cached element once: softmax's sum pass and
// output pass both evaluate expf(row[k] - max) on the same register. The
// first pass that evaluates it stores the result over the element, and the
// later passes read it back instead of calling expf again. The stored value
// is the one the later passes would have computed, so the output is
// bit-identical; it only applies when nothing the call reads can change in
// between and no later pass reads the raw element.
#ifndef STARK_AGENTS_BUILTIN_VALUE_REUSE_H
#define STARK_AGENTS_BUILTIN_VALUE_REUSE_H

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace stark::builtin {

/// Whether an identifier keeps its value from the start of pass `first` to
/// the end of pass `last` (indices into the passes given to reuse_costly_call).
using UnchangedBetween = std::function<bool(const std::string& identifier, size_t first, size_t last)>;

/// The passes (statement texts, in program order) with the reuse applied;
/// nullopt when it does not apply. `element` is the cached element's exact
/// text ("row[k]").
std::optional<std::vector<std::string>> reuse_costly_call(const std::vector<std::string>& passes,
                                                          const std::string& element,
                                                          const UnchangedBetween& unchanged);

/// Whether `identifier` may be written anywhere in `text`: an assignment
/// (=, +=, ...), ++/--, or its address taken.
bool may_write(const std::string& text, const std::string& identifier);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_VALUE_REUSE_H
