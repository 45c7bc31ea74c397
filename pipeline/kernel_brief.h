// What the roles are told about a kernel before any search: its source, its
// launch sites as the project writes them, the inputs recorded from the
// project's tests, the GPU, the tolerances.
#ifndef STARK_PIPELINE_KERNEL_BRIEF_H
#define STARK_PIPELINE_KERNEL_BRIEF_H

#include <optional>
#include <string>
#include <vector>

#include "agents/team.h"
#include "core/expected.h"
#include "core/manifest.h"

namespace stark {

/// "src/a.cu:40 in launch(): saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y)".
std::string launch_site_line(const Kernel& kernel, const Launch& launch);

/// The kernel's current text (its manifest range), read from the source
/// tree; an error when the file changed since the scan.
Expected<std::string> kernel_source(const Manifest& manifest, const Kernel& kernel);

/// The brief of a kernel. brief.kernel points into the manifest.
Expected<KernelBrief> make_brief(const Manifest& manifest, const Kernel& kernel, CapturedInputs inputs,
                                 std::optional<GpuInfo> gpu);

}  // namespace stark

#endif  // STARK_PIPELINE_KERNEL_BRIEF_H
