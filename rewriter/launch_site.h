// The edits that put a variant's launch override into one launch site: the
// override's expressions with this call's argument expressions substituted,
// spliced over the site's grid, block and shared-memory arguments, plus the
// cudaFuncSetAttribute a dynamic shared-memory size above 48 KB needs.
#ifndef STARK_REWRITER_LAUNCH_SITE_H
#define STARK_REWRITER_LAUNCH_SITE_H

#include <string_view>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "core/variant.h"
#include "rewriter/text_edit.h"

namespace stark::rewriter {

/// Bytes of dynamic shared memory a launch may use without opting in.
inline constexpr int64_t kDefaultSharedMemoryLimit = 48 * 1024;

/// Edits of `site` (in `content`, the file's text the scan saw) for
/// `launch`. No edits for an empty override. An Error, naming the site, when
/// the override cannot be written there: the launch is inside a macro or
/// uses a config struct (no ranges), its arguments are unknown, an argument
/// the override reads has side effects, a name is not allowed...
Expected<std::vector<TextEdit>> launch_site_edits(const Kernel& kernel, const Launch& site,
                                                  const LaunchOverride& launch, std::string_view content);

/// "src/ops.cu:40 (in ns::launch_saxpy)" for messages.
std::string describe_site(const Launch& site);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_LAUNCH_SITE_H
