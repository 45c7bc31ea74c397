// Finds host code a candidate smuggled in. While searching, only device code
// is loaded (cubins), so host code never runs; this check makes sure none is
// handed back either: it compiles the original and the patched translation
// unit to host objects (nvcc -c) and lists host symbols and static
// initialisers that only the patched one has. Host shadows of new __device__
// variables and stubs of kernels are device code's, and are allowed.
#ifndef STARK_HARNESS_COMPILE_HOST_CODE_CHECK_H
#define STARK_HARNESS_COMPILE_HOST_CODE_CHECK_H

#include <string>
#include <vector>

#include "core/expected.h"
#include "harness/common/cubin_info.h"

namespace stark::harness {

/// What the patched object adds on the host side, one line each
/// ("host function evil(int) (_Z4evili)", "2 more static initialisers").
/// Empty: no host code added.
Expected<std::vector<std::string>> host_code_added(const std::string& original_object,
                                                   const std::string& patched_object, const CubinInfo& patched_cubin);

}  // namespace stark::harness

#endif  // STARK_HARNESS_COMPILE_HOST_CODE_CHECK_H
