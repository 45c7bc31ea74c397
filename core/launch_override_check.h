// The names a launch override may use (docs/CONTRACTS.md): the kernel's
// parameter names (fields of by-value structs as p.n), the original launch
// as grid.x..block.z and shmem, literals, + - * / %, min, max, ceil_div.
#ifndef STARK_CORE_LAUNCH_OVERRIDE_CHECK_H
#define STARK_CORE_LAUNCH_OVERRIDE_CHECK_H

#include "core/expected.h"
#include "core/manifest.h"
#include "core/variant.h"

namespace stark {

/// Ok when the kernel's launches can be rewritten at all (an empty
/// `fixed_launch`) and every expression of the override parses and reads
/// only allowed names. Struct fields are accepted as "p.<field>" for record parameters
/// (the evaluator resolves them against the captured bytes).
Expected<void> check_launch_override(const Kernel& kernel, const LaunchOverride& launch);

}  // namespace stark

#endif  // STARK_CORE_LAUNCH_OVERRIDE_CHECK_H
