// `stark apply` as a library: from a result directory to a patch, edited
// sources, or a variant tree with its CMake fragment. Plans the edits,
// compile-checks them for every arch, refuses the kernels that fail, and
// writes the chosen form.
#ifndef STARK_REWRITER_APPLY_H
#define STARK_REWRITER_APPLY_H

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "rewriter/apply_plan.h"
#include "rewriter/compile_check.h"
#include "rewriter/inplace.h"
#include "rewriter/variant_recheck.h"

namespace stark::rewriter {

enum class ApplyMode { Patch, Inplace, Variants };

struct ApplyRequest {
  std::filesystem::path result_dir;
  ApplyMode mode = ApplyMode::Patch;
  /// patch: the patch file (empty: only returned); variants: the folder
  /// (empty: RESULT_DIR/variants); inplace: the backup folder (empty:
  /// RESULT_DIR/backup/<time>).
  std::filesystem::path output;
  std::vector<std::string> only;  // kernel ids (empty: all improved)
  bool compile_check = true;
  CommandBuilder builder;                // required when compile_check
  std::vector<CompileCommand> database;  // the local build's compile_commands.json: the check's only units and flags
  ValidatorFactory validator;            // required: every variant is checked again first
  int jobs = 1;
  std::function<void(const std::string&)> note;  // progress lines for people
  /// After each compile of the check: done, total, unit, arch.
  std::function<void(size_t, size_t, const std::string&, const std::string&)> compile_progress;
};

struct ApplyReport {
  ApplyPlan plan;
  std::string patch;                       // patch mode: the whole diff
  std::vector<CheckFailure> failures;      // compile failures (their kernels are refused)
  std::vector<std::string> unchecked;      // kernels without a compile command
  std::filesystem::path written;           // patch file, variants folder or backup folder
  std::vector<std::string> files_written;  // inplace: sources replaced
};

/// Name of the fragment inside the variants folder.
inline constexpr const char* kFragmentName = "stark-variants.cmake";

/// Applies the result. An Error when nothing can be done at all (no result,
/// no manifest, a variant the check refuses, an output that cannot be
/// written); refusals of single kernels are in the report.
Expected<ApplyReport> apply_result(const ApplyRequest& request);

}  // namespace stark::rewriter

#endif  // STARK_REWRITER_APPLY_H
