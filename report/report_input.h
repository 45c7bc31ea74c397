// Everything a report shows, read from a result directory alone: the result,
// the manifest it names (for locations) and the sources (for the diffs).
// Relative `source_root` and `manifest` paths in result.json are resolved
// against the result directory, so a result directory can be moved or kept
// as test data.
#ifndef STARK_REPORT_REPORT_INPUT_H
#define STARK_REPORT_REPORT_INPUT_H

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/manifest.h"
#include "core/result.h"
#include "report/changes.h"

namespace stark::report {

/// Where a kernel is: its name (the manifest's line and column) and the
/// extent of its range (annotation or template header .. closing brace).
struct Location {
  std::string file;  // relative to the source root, '/' separated
  int line = 0;
  int column = 0;
  std::optional<TextPosition> begin, end;  // nullopt when the source could not be read
};

/// One kernel of the result with what the manifest and the sources add.
struct KernelReport {
  KernelResult result;
  std::optional<Location> location;    // nullopt: not in the manifest
  std::optional<KernelChange> change;  // the winner's diff (improved kernels with a best variant)
  std::string change_error;            // why an improved kernel has no diff (one line)
};

/// A loaded result directory.
struct ReportInput {
  std::filesystem::path result_dir;
  Result result;
  std::filesystem::path source_root;  // resolved
  std::vector<KernelReport> kernels;  // in the result's order
  std::vector<std::string> warnings;  // problems that leave parts of the report empty
};

/// Loads DIR/result.json, the manifest and the sources. Only a missing or
/// invalid result.json is an error; a missing manifest or source becomes a
/// warning and the parts that need it are left out.
Expected<ReportInput> load_report_input(const std::filesystem::path& dir,
                                        const EditPlanner& planner = kernel_range_edits);

/// The short name of a kernel id: "src/ops.cu:ns::saxpy(int)" -> "saxpy".
std::string short_name(const std::string& id);

}  // namespace stark::report

#endif  // STARK_REPORT_REPORT_INPUT_H
