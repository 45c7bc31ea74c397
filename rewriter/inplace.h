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
  std::vector<std::string> written;  // relative paths replaced
  std::filesystem::path backup_dir;  // originals, at backup_dir/<relative path>
};

/// Replaces every file of the plan. Nothing is written when any file lies
/// outside the source root (links resolved), no longer holds what the scan
/// saw, or would have its backup written over a source; when a rename fails
/// midway, the files already replaced are restored from the backup. While
/// the renames run, a journal in the source root (kJournalName) says which
/// files change, so a run killed midway can be finished or undone.
Expected<InplaceOutcome> write_in_place(const ApplyPlan& plan, const std::filesystem::path& backup_dir);

/// The journal of an in-place apply in progress, in the source root: the
/// project's own folder, never the (untrusted) result folder, so a journal
/// planted in a downloaded result cannot direct a write.
inline constexpr const char* kJournalName = ".stark-apply-journal.json";

/// What recover_in_place did.
struct Recovery {
  enum class Outcome { Finished, RolledBack } outcome = Outcome::Finished;
  std::vector<std::string> files;  // relative paths now new (Finished) or original again (RolledBack)
};

/// Ends the apply an interrupted run left in `source_root`: every file gets
/// its new content when each one has it already or has its temporary beside
/// it; otherwise every file gets its original back from the backup. Temps
/// and the journal are removed. An Error when there is no journal, or when a
/// file holds neither content the journal names (it was edited since).
Expected<Recovery> recover_in_place(const std::filesystem::path& source_root);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_INPLACE_H
