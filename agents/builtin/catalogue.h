// The built-in expert's strategies, in the order it tries them: the
// structural rewrites of recognised patterns first, then the polish that
// applies to almost any kernel.
#ifndef STARK_AGENTS_BUILTIN_CATALOGUE_H
#define STARK_AGENTS_BUILTIN_CATALOGUE_H

#include <memory>
#include <string_view>
#include <vector>

#include "agents/builtin/strategy.h"

namespace stark::builtin {

const std::vector<std::unique_ptr<Strategy>>& catalogue();

/// The strategy of that name, or null.
const Strategy* find_strategy(std::string_view name);

/// Whether the strategy restructures the kernel (its parameter sets are all
/// worth trying) or polishes it (the first parameter set first).
bool is_structural(const Strategy& s);

}  // namespace stark::builtin

#endif  // STARK_AGENTS_BUILTIN_CATALOGUE_H
