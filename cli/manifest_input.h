// How commands that work on kernels get their manifest: a file from
// `stark scan -o`, or a fresh scan of the build tree (diagnostics printed).
#ifndef STARK_CLI_MANIFEST_INPUT_H
#define STARK_CLI_MANIFEST_INPUT_H

#include <string>

#include "core/expected.h"
#include "core/manifest.h"

namespace stark::cli {

struct ManifestInput {
  Manifest manifest;
  bool had_errors = false;  // the scan reported error diagnostics (already printed)
};

/// Loads manifest_path when given, else scans build_dir (restricted to
/// target when given, with config's flags in a multi-config build) and
/// prints the scan's diagnostics. build_dir fills in a manifest without one.
Expected<ManifestInput> obtain_manifest(const std::string& build_dir, const std::string& target,
                                        const std::string& config, const std::string& manifest_path);

}  // namespace stark::cli

#endif  // STARK_CLI_MANIFEST_INPUT_H
