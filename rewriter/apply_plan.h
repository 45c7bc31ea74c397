// What applying a result means for the user's files: for every improved
// kernel, the edits of its range and of each launch site, checked against
// the content the scan saw, combined per file. The three modes (patch,
// inplace, variants) only differ in where the new contents go.
#ifndef STARK_REWRITER_APPLY_PLAN_H
#define STARK_REWRITER_APPLY_PLAN_H

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "core/result.h"

namespace stark::rewriter {

/// One source file with its new content.
struct FileChange {
  std::string path;      // relative to the source root, generic form
  std::string original;  // the content the scan saw (checked against its hash)
  std::string updated;
  std::string hash;                  // the manifest's content hash of `original`
  std::vector<std::string> kernels;  // ids of the kernels editing this file
  int group = 0;                     // see AppliedKernel::group
};

/// An improved kernel whose edits are in the plan.
struct AppliedKernel {
  std::string id;
  std::vector<std::string> files;  // every file it edits (kernel + launch sites)
  /// Kernels sharing a file share a group; a group is used or dropped whole.
  int group = 0;
};

/// An improved kernel that could not be applied, and why (one line).
struct Refusal {
  std::string kernel;
  std::string message;
};

struct ApplyPlan {
  std::filesystem::path source_root;
  std::vector<FileChange> files;  // sorted by path
  std::vector<AppliedKernel> kernels;
  std::vector<Refusal> refused;
  int skipped = 0;  // kernels of the result that are not "improved"
};

struct PlanOptions {
  std::vector<std::string> only;  // kernel ids to apply (empty: every improved kernel)
  /// Kernels refused before planning (e.g. by a failed compile check): id -> reason.
  std::map<std::string, std::string> refuse;
};

/// The manifest a result names (`manifest`: absolute, or relative to the result directory).
Expected<Manifest> load_result_manifest(const Result& result, const std::filesystem::path& result_dir);

/// Plans the edits. An Error only for problems with the request itself (an
/// unknown kernel in `only`); problems of one kernel are refusals.
Expected<ApplyPlan> plan_apply(const Result& result, const Manifest& manifest, const PlanOptions& options = {});

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_APPLY_PLAN_H
