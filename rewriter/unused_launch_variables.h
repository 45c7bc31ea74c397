// After a launch override replaced a site's grid or block, the local
// variable the site passed (`dim3 grid(...)`) may have no reader left. These
// are the deletions of such declarations, so a patch leaves nothing unused.
#ifndef STARK_REWRITER_UNUSED_LAUNCH_VARIABLES_H
#define STARK_REWRITER_UNUSED_LAUNCH_VARIABLES_H

#include <string_view>
#include <vector>

#include "core/manifest.h"
#include "core/variant.h"
#include "rewriter/text_edit.h"

namespace stark::rewriter {

/// Deletions (whole lines where the declaration stands alone) of the grid
/// and block variables of `sites` (all in the file `content`) whose every
/// read lies inside `edits` or inside another deleted declaration. A
/// variable the override itself reads (grid.x) stays; so does one whose
/// declaration in the file is not the one the manifest describes.
std::vector<TextEdit> unused_variable_deletions(const std::vector<const Launch*>& sites, const LaunchOverride& launch,
                                                std::string_view content, const std::vector<TextEdit>& edits);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_UNUSED_LAUNCH_VARIABLES_H
