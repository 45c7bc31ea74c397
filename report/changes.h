// What applying a result changes in the sources: the edits of each improved
// kernel and their unified diff, for the reports' folded diff and SARIF fixes.
//
// The complete edits (launch sites, cudaFuncSetAttribute, generated-code
// comment) are the rewriter's job (`stark apply`). Reports ask for them
// through one narrow interface, EditPlanner: `stark report` hands in the
// rewriter's plan (cli/cmd_report.cpp); the library's default,
// kernel_range_edits, replaces the kernel's range only and says so in a note.
#ifndef STARK_REPORT_CHANGES_H
#define STARK_REPORT_CHANGES_H

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "core/result.h"

namespace stark::report {

/// One replacement in a source file, in bytes of the file as scanned.
struct SourceEdit {
  std::string file;  // relative to the source root, '/' separated
  ByteRange range;   // the bytes replaced; begin == end inserts
  std::string replacement;
  bool operator==(const SourceEdit&) const = default;
};

/// The edits that apply one kernel's winner, and what they leave out.
struct EditPlan {
  std::vector<SourceEdit> edits;
  std::vector<std::string> notes;  // one line each, shown beside the diff
};

/// Plans the edits of one kernel whose result has a `best` variant.
using EditPlanner = std::function<Expected<EditPlan>(const Kernel& kernel, const KernelResult& result,
                                                     const std::filesystem::path& source_root)>;

/// The built-in planner: the kernel's manifest range replaced by best.source
/// (the annotation put back when the variant left it out). A launch override
/// is not spliced into the launch sites: a note says so.
Expected<EditPlan> kernel_range_edits(const Kernel& kernel, const KernelResult& result,
                                      const std::filesystem::path& source_root);

/// Edits (blocks of whole changed lines) that turn `original` into `updated`:
/// for planners that produce rewritten files rather than edits.
std::vector<SourceEdit> edits_between(const std::string& file, std::string_view original, std::string_view updated);

/// `source` with the original's [[stark::optimize...]] or STARK_OPTIMIZE(...)
/// put back where the original had it, when `source` has no annotation.
std::string keep_annotation(std::string_view original, std::string source);

/// A 1-based line and column (columns count code points, as SARIF's
/// "unicodeCodePoints" column kind does).
struct TextPosition {
  int line = 1;
  int column = 1;
  bool operator==(const TextPosition&) const = default;
};

/// The position of byte `offset` of `text`.
TextPosition position_of(std::string_view text, int64_t offset);

/// Where an edit's replaced bytes are in the original file.
struct EditRegion {
  TextPosition begin, end;  // end: the position just after the last replaced byte
};

/// The edits of one kernel applied, as a diff.
struct KernelChange {
  std::vector<SourceEdit> edits;
  std::vector<EditRegion> regions;  // one per edit
  std::vector<std::string> notes;
  std::string diff;  // unified, `git apply`-able from the source root
  int added = 0;
  int removed = 0;
};

/// Reads every file the plan touches, refuses files whose content hash differs
/// from the manifest's (`hashes`: relative path -> "xxh64:..."; a file not
/// listed is not checked) and edits that overlap or fall outside the file.
Expected<KernelChange> apply_plan(const EditPlan& plan, const std::filesystem::path& source_root,
                                  const std::map<std::string, FileEntry>& hashes);

}  // namespace stark::report

#endif  // STARK_REPORT_CHANGES_H
