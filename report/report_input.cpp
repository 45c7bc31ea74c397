#include "report/report_input.h"

#include <fmt/format.h>

#include "core/file_io.h"
#include "core/paths.h"

namespace stark::report {

namespace fs = std::filesystem;

namespace {

fs::path resolve(const fs::path& dir, const std::string& p) {
  if (p.empty()) return {};
  fs::path path(p);
  return absolute_normal(path.is_absolute() ? path : dir / path);
}

Location locate(const Kernel& k, const fs::path& source_root) {
  Location loc{k.file, k.line, k.column, std::nullopt, std::nullopt};
  auto path = confine_path(source_root, k.file);
  if (!path) return loc;
  if (auto text = read_file(*path);
      text && k.range.begin >= 0 && k.range.begin <= k.range.end && static_cast<size_t>(k.range.end) <= text->size()) {
    loc.begin = position_of(*text, k.range.begin);
    loc.end = position_of(*text, k.range.end);
  }
  return loc;
}

}  // namespace

std::string short_name(const std::string& id) {
  std::string name = id;
  if (auto paren = name.find('('); paren != std::string::npos) name.resize(paren);
  if (auto colon = name.rfind(':'); colon != std::string::npos) name = name.substr(colon + 1);
  return name.empty() ? id : name;
}

Expected<ReportInput> load_report_input(const fs::path& dir, const EditPlanner& planner) {
  auto result = load_result(dir.string());
  if (!result) return result.error();
  ReportInput in;
  in.result_dir = absolute_normal(dir);
  in.result = std::move(*result);
  in.source_root = resolve(in.result_dir, in.result.source_root);

  std::optional<Manifest> manifest;
  fs::path manifest_path = resolve(in.result_dir, in.result.manifest);
  if (auto m = load_manifest(manifest_path.string())) manifest = std::move(*m);
  else in.warnings.push_back(fmt::format("no kernel locations or diffs: {}", m.error().message));

  for (const auto& kr : in.result.kernels) {
    KernelReport k{kr, std::nullopt, std::nullopt, {}};
    const Kernel* mk = manifest ? manifest->find_kernel(kr.id) : nullptr;
    if (manifest && !mk) in.warnings.push_back(fmt::format("kernel '{}' is not in the manifest", kr.id));
    if (mk) k.location = locate(*mk, in.source_root);
    if (mk && kr.status == KernelStatus::Improved && kr.best) {
      auto plan = planner(*mk, kr, in.source_root);
      auto change = plan ? apply_plan(*plan, in.source_root, manifest->files) : Expected<KernelChange>(plan.error());
      if (change) k.change = std::move(*change);
      else k.change_error = change.error().message;
    }
    in.kernels.push_back(std::move(k));
  }
  return in;
}

}  // namespace stark::report
