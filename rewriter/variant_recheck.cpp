#include "rewriter/variant_recheck.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>

#include "core/file_io.h"
#include "core/hash.h"
#include "core/paths.h"
#include "rewriter/compile_check.h"

namespace stark::rewriter {

namespace {

/// The kernel's file is inside the source root, holds what the scan saw,
/// and its range fits it: the variant is checked where it would go.
/// Anything else the plan refuses, with its reason, before a byte is written.
bool as_scanned(const Manifest& manifest, const Kernel& kernel) {
  auto path = confine_path(manifest.source_root, kernel.file);
  if (!path) return false;
  auto entry = manifest.files.find(kernel.file);
  auto text = read_file(*path);
  return entry != manifest.files.end() && text && content_hash(*text) == entry->second.hash &&
         kernel.range.begin >= 0 && kernel.range.begin <= kernel.range.end &&
         kernel.range.end <= static_cast<int64_t>(text->size());
}

}  // namespace

Manifest with_local_commands(Manifest manifest, const std::vector<CompileCommand>& database) {
  std::map<std::filesystem::path, const CompileCommand*> local;
  for (const auto& c : database) local.emplace(unit_file(c), &c);
  const std::filesystem::path root = absolute_normal(manifest.source_root);
  for (auto& k : manifest.kernels) {
    if (!k.compile) continue;
    auto it = local.find(unit_file(*k.compile));
    if (it == local.end()) it = local.find(absolute_normal(root / k.file));
    if (it != local.end()) k.compile = *it->second;
    // The compiler's path only tells the parse where the CUDA headers are:
    // a bare name makes it take the local toolkit's.
    if (!k.compile->arguments.empty()) k.compile->arguments[0] = "nvcc";
  }
  return manifest;
}

Expected<void> recheck_variants(const Result& result, const Manifest& manifest, const std::vector<std::string>& only,
                                VariantValidator& validator) {
  for (const auto& kr : result.kernels) {
    if (kr.status != KernelStatus::Improved || !kr.best) continue;
    if (!only.empty() && std::find(only.begin(), only.end(), kr.id) == only.end()) continue;
    const Kernel* kernel = manifest.find_kernel(kr.id);
    if (!kernel || !as_scanned(manifest, *kernel)) continue;  // the plan refuses it: nothing of it is written
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
