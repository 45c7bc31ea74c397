#include "rewriter/variant_recheck.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "core/file_io.h"
#include "core/hash.h"
#include "core/paths.h"

namespace stark::rewriter {

namespace {

/// The file is inside the source root and holds what the scan saw: the
/// variant is checked where it would go. Anything else the plan refuses,
/// with its reason, before a byte is written.
bool as_scanned(const Manifest& manifest, const std::string& rel) {
  auto path = confine_path(manifest.source_root, rel);
  if (!path) return false;
  auto entry = manifest.files.find(rel);
  auto text = read_file(*path);
  return entry != manifest.files.end() && text && content_hash(*text) == entry->second.hash;
}

}  // namespace

Expected<void> recheck_variants(const Result& result, const Manifest& manifest, const std::vector<std::string>& only,
                                VariantValidator& validator) {
  for (const auto& kr : result.kernels) {
    if (kr.status != KernelStatus::Improved || !kr.best) continue;
    if (!only.empty() && std::find(only.begin(), only.end(), kr.id) == only.end()) continue;
    const Kernel* kernel = manifest.find_kernel(kr.id);
    if (!kernel || !as_scanned(manifest, kernel->file)) continue;  // the plan refuses it: nothing of it is written
    Variant variant = *kr.best;
    variant.kernel = kr.id;
    if (auto ok = validator.validate(*kernel, variant); !ok) {
      std::string reason;
      for (char c : ok.error().message) reason += c == '\n' ? std::string("; ") : std::string(1, c);
      return Error{fmt::format("{}: the result's variant is refused, nothing was applied: {}", kr.id, reason)};
    }
  }
  return {};
}

}  // namespace stark::rewriter
