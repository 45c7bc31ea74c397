#include "rewriter/apply_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "core/file_io.h"
#include "core/hash.h"
#include "core/paths.h"
#include "rewriter/kernel_source.h"
#include "rewriter/launch_site.h"
#include "rewriter/text_edit.h"
#include "rewriter/unused_launch_variables.h"

namespace stark::rewriter {

namespace fs = std::filesystem;

namespace {

/// The sources as they are now, checked against the manifest's hashes.
class SourceFiles {
 public:
  SourceFiles(const Manifest& manifest) : manifest_(manifest), root_(manifest.source_root) {}

  /// The content of `rel`, or why it cannot be edited.
  Expected<const std::string*> get(const std::string& rel) {
    auto cached = content_.find(rel);
    if (cached != content_.end()) return &cached->second;
    auto entry = manifest_.files.find(rel);
    if (entry == manifest_.files.end())
      return Error{fmt::format("{} is not among the manifest's files; scan again", rel)};
    auto path = confine_path(root_, rel);
    if (!path) return Error{fmt::format("the manifest's path {}", path.error().message)};
    auto text = read_file(*path);
    if (!text) return text.error();
    std::string now = content_hash(*text);
    if (now != entry->second.hash)
      return Error{
          fmt::format("{} changed since the scan (content hash {} then, {} now); run stark optimize again "
                      "(or scan again) so the kernel is measured against the current source",
                      rel, entry->second.hash, now)};
    return &content_.emplace(rel, std::move(*text)).first->second;
  }

  const std::string& hash(const std::string& rel) const { return manifest_.files.at(rel).hash; }

 private:
  const Manifest& manifest_;
  fs::path root_;
  std::map<std::string, std::string> content_;
};

/// All edits of one kernel, per file.
using KernelEdits = std::map<std::string, std::vector<TextEdit>>;

Expected<KernelEdits> edits_of(const Result& result, const KernelResult& kr, const Kernel& kernel, SourceFiles& files) {
  KernelEdits out;
  auto content = files.get(kernel.file);
  if (!content) return content.error();
  auto k = kernel_edits(result, kr, kernel, **content);
  if (!k) return k.error();
  out[kernel.file] = std::move(*k);
  if (!kr.best || kr.best->launch.empty()) return out;
  if (kernel.launches.empty())
    return Error{"the variant changes the launch configuration, but the manifest lists no launch site to change"};
  std::set<std::tuple<std::string, int64_t, int64_t>> seen;  // a site in a template is listed per instantiation
  std::map<std::string, std::vector<const Launch*>> sites_in;
  for (const auto& site : kernel.launches) {
    if (!seen.insert({site.file, site.config_range.begin, site.config_range.end}).second) continue;
    auto site_content = files.get(site.file);
    if (!site_content) return site_content.error();
    auto e = launch_site_edits(kernel, site, kr.best->launch, **site_content);
    if (!e) return e.error();
    auto& list = out[site.file];
    list.insert(list.end(), e->begin(), e->end());
    sites_in[site.file].push_back(&site);
  }
  for (const auto& [file, sites] : sites_in) {
    auto& list = out[file];
    auto unused = unused_variable_deletions(sites, kr.best->launch, **files.get(file), list);
    list.insert(list.end(), unused.begin(), unused.end());
  }
  return out;
}

int find_root(std::vector<int>& parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

using AcceptedEdits = std::vector<std::pair<std::string, KernelEdits>>;

// The improved kernels' edits, by kernel; the others counted as skipped or
// refused with the reason.
AcceptedEdits accepted_edits(const Result& result, const Manifest& manifest, const PlanOptions& options,
                             SourceFiles& files, ApplyPlan& plan) {
  AcceptedEdits accepted;
  for (const auto& kr : result.kernels) {
    if (!options.only.empty() && std::find(options.only.begin(), options.only.end(), kr.id) == options.only.end())
      continue;
    if (kr.status != KernelStatus::Improved) {
      ++plan.skipped;
      continue;
    }
    if (auto pre = options.refuse.find(kr.id); pre != options.refuse.end()) {
      plan.refused.push_back({kr.id, pre->second});
      continue;
    }
    const Kernel* kernel = manifest.find_kernel(kr.id);
    if (!kernel) {
      plan.refused.push_back({kr.id, "the result's manifest has no such kernel"});
      continue;
    }
    auto edits = edits_of(result, kr, *kernel, files);
    if (!edits) {
      plan.refused.push_back({kr.id, edits.error().message});
      continue;
    }
    accepted.emplace_back(kr.id, std::move(*edits));
  }
  return accepted;
}

// The new content of every file, per file combined; the kernels whose edits
// overlap in a file are refused together and the rest combined again.
void combine_per_file(AcceptedEdits& accepted, SourceFiles& files, ApplyPlan& plan) {
  for (;;) {
    std::map<std::string, std::vector<TextEdit>> per_file;
    std::map<std::string, std::vector<std::string>> editors;
    for (const auto& [id, edits] : accepted)
      for (const auto& [file, list] : edits) {
        auto& all = per_file[file];
        all.insert(all.end(), list.begin(), list.end());
        editors[file].push_back(id);
      }
    plan.files.clear();
    std::string clash_file;
    for (auto& [file, list] : per_file) {
      auto content = files.get(file);  // cached and checked by edits_of
      auto updated = apply_edits(**content, list);
      if (!updated) {
        for (const auto& id : editors[file])
          plan.refused.push_back(
              {id, fmt::format("its edits in {} collide with another edit: {}", file, updated.error().message)});
        clash_file = file;
        break;
      }
      plan.files.push_back({file, **content, std::move(*updated), files.hash(file), editors[file], 0});
    }
    if (clash_file.empty()) return;
    const auto& clashing = editors[clash_file];
    std::erase_if(accepted, [&](const auto& a) {
      return std::find(clashing.begin(), clashing.end(), a.first) != clashing.end();
    });
  }
}

// Groups: kernels connected through shared files apply together.
void group_by_shared_files(const AcceptedEdits& accepted, ApplyPlan& plan) {
  std::vector<int> parent(accepted.size());
  std::iota(parent.begin(), parent.end(), 0);
  std::map<std::string, int> first_editor;
  for (int i = 0; i < static_cast<int>(accepted.size()); ++i)
    for (const auto& [file, list] : accepted[static_cast<size_t>(i)].second) {
      auto [it, fresh] = first_editor.emplace(file, i);
      if (!fresh) parent[static_cast<size_t>(find_root(parent, i))] = find_root(parent, it->second);
    }
  std::map<int, int> group_of_root;
  for (int i = 0; i < static_cast<int>(accepted.size()); ++i) {
    int root = find_root(parent, i);
    int group = group_of_root.emplace(root, static_cast<int>(group_of_root.size())).first->second;
    AppliedKernel k{accepted[static_cast<size_t>(i)].first, {}, group};
    for (const auto& [file, list] : accepted[static_cast<size_t>(i)].second) k.files.push_back(file);
    plan.kernels.push_back(std::move(k));
  }
  for (auto& f : plan.files) f.group = group_of_root.at(find_root(parent, first_editor.at(f.path)));
}

}  // namespace

Expected<Manifest> load_result_manifest(const Result& result, const fs::path& result_dir) {
  if (result.manifest.empty()) return Error{fmt::format("the result in {} names no manifest", result_dir.string())};
  fs::path path = result.manifest;
  if (path.is_relative()) path = result_dir / path;
  return load_manifest(path.string());
}

Expected<ApplyPlan> plan_apply(const Result& result, const Manifest& manifest, const PlanOptions& options) {
  ApplyPlan plan;
  plan.source_root = manifest.source_root;
  for (const auto& id : options.only)
    if (std::none_of(result.kernels.begin(), result.kernels.end(), [&](const KernelResult& k) { return k.id == id; }))
      return Error{fmt::format("the result has no kernel '{}'", id)};
  SourceFiles files(manifest);
  AcceptedEdits accepted = accepted_edits(result, manifest, options, files, plan);
  combine_per_file(accepted, files, plan);
  group_by_shared_files(accepted, plan);
  return plan;
}

}  // namespace stark::rewriter
