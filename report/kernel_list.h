// `stark scan --list`: the kernels of a manifest as a table people read
// (the JSON manifest is for programs).
#ifndef STARK_REPORT_KERNEL_LIST_H
#define STARK_REPORT_KERNEL_LIST_H

#include <string>

#include "core/manifest.h"

namespace stark::report {

/// One row per kernel: its id (what --kernel takes), its instantiations'
/// template arguments and its launch sites; long cells end in "+N more".
std::string kernel_list(const Manifest& manifest);

}  // namespace stark::report

#endif  // STARK_REPORT_KERNEL_LIST_H
