// Writing a plan's new contents over the user's sources: every file checked
// against the content the scan saw just before it is replaced, backed up
// first, written to a temporary beside it and renamed over it, so a crash
// leaves each file either old or new, never half written.
#ifndef STARK_REWRITER_INPLACE_H
#define STARK_REWRITER_INPLACE_H

#include <filesystem>
#include <string>
#include <vector>

#include "core/expected.h"
#include "rewriter/apply_plan.h"

namespace stark::rewriter {

struct InplaceOutcome {
  std::vector<std::string> written;    // relative paths replaced
  std::filesystem::path backup_dir;    // originals, at backup_dir/<relative path>
};

/// Replaces every file of the plan. Nothing is written when any file lies
/// outside the source root (links resolved), no longer holds what the scan
/// saw, or would have its backup written over a source; when a rename fails
/// midway, the files already replaced are restored from the backup.
Expected<InplaceOutcome> write_in_place(const ApplyPlan& plan, const std::filesystem::path& backup_dir);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_INPLACE_H
