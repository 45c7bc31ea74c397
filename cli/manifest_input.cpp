#include "cli/manifest_input.h"

#include "clang_tool/scan.h"
#include "cli/console.h"

namespace stark::cli {

Expected<ManifestInput> obtain_manifest(const std::string& build_dir, const std::string& target,
                                        const std::string& config, const std::string& manifest_path) {
  ManifestInput in;
  if (!manifest_path.empty()) {
    auto m = load_manifest(manifest_path);
    if (!m) return m.error();
    in.manifest = std::move(*m);
  } else {
    ScanOptions scan;
    scan.build_dir = build_dir;
    scan.target = target;
    scan.config = config;
    auto s = scan_build(scan);
    if (!s) return s.error();
    for (const auto& d : s->manifest.diagnostics) print_diagnostic(d);
    in.manifest = std::move(s->manifest);
  }
  in.had_errors = in.manifest.has_errors();
  if (in.manifest.build_dir.empty()) in.manifest.build_dir = build_dir;
  return in;
}

}  // namespace stark::cli
