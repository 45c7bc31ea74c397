// The names an annotation's options use, checked against the kernel they
// mark: `args` gives scalars, `buffers` gives pointers, and launch
// expressions read parameters (or fields of struct parameters).
#ifndef STARK_CORE_OPTION_NAMES_H
#define STARK_CORE_OPTION_NAMES_H

#include <string>
#include <vector>

#include "core/kernel_options.h"
#include "core/manifest.h"

namespace stark {

/// One message per name that cannot mean what the option says, e.g.
/// "'args': 'm' is not a parameter of the kernel (its parameters: n, x)".
std::vector<std::string> option_name_problems(const KernelOptions& options, const std::vector<Param>& params);

}  // namespace stark

#endif  // STARK_CORE_OPTION_NAMES_H
