#include "rewriter/apply.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "core/file_io.h"
#include "core/paths.h"
#include "core/result.h"
#include "core/scratch_dir.h"
#include "rewriter/cmake_fragment.h"
#include "rewriter/sha256.h"
#include "core/unified_diff.h"
#include "rewriter/variant_tree.h"

namespace stark::rewriter {

namespace fs = std::filesystem;

namespace {

/// Folders of the build's units inside the source root: real in the tree, so
/// "../x" from a unit compiled there resolves inside the tree.
std::vector<std::string> unit_folders(const std::vector<CompileCommand>& database, const fs::path& root) {
  std::set<std::string> out;
  for (const auto& c : database) {
    fs::path dir = c.directory.empty() ? fs::current_path() : fs::path(c.directory);
    fs::path file = absolute_normal(dir / c.file);
    if (is_within(file, root) && file.parent_path() != root)
      out.insert(fs::relative(file.parent_path(), root).generic_string());
  }
  return {out.begin(), out.end()};
}

/// The include folders inside the source root (links resolved) of the local
/// build's units that hold the applied kernels: never the manifest's flags.
std::vector<fs::path> unit_include_dirs(const ApplyPlan& plan, const Manifest& manifest,
                                        const std::vector<CompileCommand>& database, const fs::path& root) {
  std::vector<std::string> unchecked;
  std::vector<fs::path> out;
  for (const auto& unit : check_units(plan, manifest, database, unchecked))
    for (const auto& d : include_dirs_within(unit.command, root)) {
      bool inside = d == root || confine_path(root, d.lexically_relative(root).generic_string());
      if (inside && std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
    }
  return out;
}

TreeSpec tree_spec(const ApplyPlan& plan, const Manifest& manifest, const ApplyRequest& request, const fs::path& root) {
  TreeSpec spec;
  spec.source_root = plan.source_root;
  spec.root = root;
  for (const auto& f : plan.files) spec.files[f.path] = f.updated;
  spec.real_folders = unit_folders(request.database, absolute_normal(plan.source_root));
  if (!manifest.build_dir.empty()) spec.exclude.push_back(manifest.build_dir);
  return spec;
}

/// Plans, then compile-checks in `tree_root`, refusing failing kernels and
/// planning again until every remaining unit compiles.
Expected<ApplyReport> plan_and_check(const Result& result, const Manifest& manifest, const ApplyRequest& request,
                                     const fs::path& tree_root) {
  ApplyReport report;
  PlanOptions options;
  options.only = request.only;
  auto note = [&](const std::string& s) {
    if (request.note) request.note(s);
  };
  auto scratch = ScratchDir::create("apply");
  if (!scratch) return scratch.error();
  for (;;) {
    auto plan = plan_apply(result, manifest, options);
    if (!plan) return plan.error();
    report.plan = std::move(*plan);
    if (!request.compile_check || report.plan.kernels.empty()) break;
    if (!request.builder) return Error{"no compiler command builder for the compile check"};
    if (auto ok = create_variant_tree(tree_spec(report.plan, manifest, request, tree_root)); !ok) return ok.error();
    report.unchecked.clear();
    auto units = check_units(report.plan, manifest, request.database, report.unchecked);
    size_t compiles = 0;
    for (const auto& u : units) compiles += u.archs.size();
    note(fmt::format("compile check: {} translation unit{}, {} compile{}", units.size(), units.size() == 1 ? "" : "s",
                     compiles, compiles == 1 ? "" : "s"));
    auto failures = compile_check(units, {report.plan.source_root, tree_root, scratch->path(), request.builder,
                                          request.jobs, request.compile_progress});
    if (failures.empty()) break;
    for (const auto& f : failures) {
      report.failures.push_back(f);
      for (const auto& k : f.kernels)
        options.refuse.emplace(
            k,
            fmt::format("the rewritten {} does not compile for sm_{} (see the compiler output above)", f.file, f.sm));
    }
  }
  return report;
}

Expected<void> write_patch(ApplyReport& report, const ApplyRequest& request) {
  for (const auto& f : report.plan.files)
    report.patch += unified_diff(f.path, f.original, f.updated, 3, DiffHeader::Git).text;
  if (request.output.empty()) return {};
  report.written = request.output;
  return write_file_atomic(request.output, report.patch);
}

Expected<void> write_variants(ApplyReport& report, const Manifest& manifest, const ApplyRequest& request,
                              const fs::path& out) {
  const fs::path tree = out / "tree", rewritten = out / "rewritten";
  // Drop the old fragment first: a half-written folder is never used.
  std::error_code ec;
  fs::remove(out / kFragmentName, ec);
  fs::remove_all(rewritten, ec);
  if (auto ok = create_variant_tree(tree_spec(report.plan, manifest, request, tree)); !ok) return ok;

  Fragment fragment;
  fragment.result_file = absolute_normal(request.result_dir / "result.json");
  auto result_text = read_file(fragment.result_file);
  if (!result_text) return result_text.error();
  fragment.result_sha256 = sha256_hex(*result_text);
  fragment.source_root = absolute_normal(report.plan.source_root);
  fragment.tree = absolute_normal(tree);
  std::set<std::string> targets;
  for (const auto& applied : report.plan.kernels) {
    if (static_cast<size_t>(applied.group) >= fragment.groups.size()) fragment.groups.resize(applied.group + 1);
    fragment.groups[static_cast<size_t>(applied.group)].push_back(applied.id);
    if (const Kernel* k = manifest.find_kernel(applied.id); k && k->compile && !k->compile->target.empty())
      targets.insert(k->compile->target);  // only compared with the target's name
  }
  fragment.targets.assign(targets.begin(), targets.end());
  fragment.include_dirs = unit_include_dirs(report.plan, manifest, request.database, fragment.source_root);
  for (const auto& f : report.plan.files) {
    fs::path copy = absolute_normal(rewritten / f.path);
    if (auto ok = write_file_atomic(copy, f.updated); !ok) return ok;
    fragment.files.push_back({f.path, sha256_hex(f.original), f.hash, copy, f.group});
  }
  auto text = cmake_fragment(fragment);
  if (!text) return text.error();
  report.written = out;
  return write_file_atomic(out / kFragmentName, *text);
}

}  // namespace

Expected<ApplyReport> apply_result(const ApplyRequest& request) {
  auto result = load_result(request.result_dir.string());
  if (!result) return result.error();
  auto manifest = load_result_manifest(*result, request.result_dir);
  if (!manifest) return manifest.error();
  if (manifest->source_root.empty() || !fs::is_directory(manifest->source_root))
    return Error{fmt::format("the manifest's source root '{}' is not a folder on this machine", manifest->source_root)};
  if (request.mode == ApplyMode::Inplace && fs::exists(fs::path(manifest->source_root) / kJournalName))
    return Error{
        fmt::format("an earlier `stark apply --mode inplace` was interrupted ({} is still there); run `stark "
                    "apply --result {} --recover` to finish or undo it first",
                    (fs::path(manifest->source_root) / kJournalName).string(), request.result_dir.string())};
  if (!request.validator) return Error{"stark apply needs the variant check"};
  {
    Manifest local = with_local_commands(*manifest, request.database);
    if (auto ok = recheck_variants(*result, local, request.only, *request.validator(local)); !ok) return ok.error();
  }

  if (request.mode == ApplyMode::Variants) {
    fs::path out = absolute_normal(request.output.empty() ? request.result_dir / "variants" : request.output);
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(out, ec)))  // the folder is emptied: never through a link
      return Error{fmt::format("the variants folder {} is a symbolic link; choose a real folder", out.string())};
    if (fs::exists(out, ec) && !fs::is_empty(out, ec) && !fs::exists(out / kFragmentName, ec) &&
        !fs::exists(out / "tree" / kTreeMarker, ec))
      return Error{fmt::format("{} is not empty and holds no STARK variants; choose another folder", out.string())};
    if (is_within(out, absolute_normal(manifest->source_root)) &&
        !(!manifest->build_dir.empty() && is_within(out, absolute_normal(manifest->build_dir))))
      return Error{
          fmt::format("the variants folder {} is inside the source root but not inside the build folder; "
                      "choose a folder in the build tree",
                      out.string())};
    auto report = plan_and_check(*result, *manifest, request, out / "tree");
    if (!report) return report;
    if (auto ok = write_variants(*report, *manifest, request, out); !ok) return ok.error();
    return report;
  }

  auto scratch = ScratchDir::create("apply");
  if (!scratch) return scratch.error();
  auto report = plan_and_check(*result, *manifest, request, scratch->path() / "tree");
  if (!report) return report;
  if (request.mode == ApplyMode::Patch) {
    if (auto ok = write_patch(*report, request); !ok) return ok.error();
    return report;
  }
  fs::path backup = request.output;
  if (backup.empty()) {
    auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    backup = request.result_dir / "backup" / fmt::format("{:%Y%m%d-%H%M%S}", fmt::localtime(now));
  }
  if (report->plan.files.empty()) return report;
  auto written = write_in_place(report->plan, absolute_normal(backup));
  if (!written) return written.error();
  report->written = written->backup_dir;
  report->files_written = written->written;
  return report;
}

}  // namespace stark::rewriter
