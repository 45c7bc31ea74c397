#include "clang_tool/scan.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "clang_tool/build_info.h"
#include "clang_tool/toolchain.h"
#include "clang_tool/unit_scan.h"
#include "core/hash.h"
#include "core/paths.h"
#include "core/text.h"

namespace stark {

namespace fs = std::filesystem;

namespace {

std::vector<UnitScan> parse_all(const std::vector<CompileCommand>& units, const ClangSetup& setup,
                                const ScanOptions& options) {
  std::vector<UnitScan> out(units.size());
  size_t jobs =
      options.jobs > 0 ? static_cast<size_t>(options.jobs) : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min(jobs, std::max<size_t>(units.size(), 1));
  std::atomic<size_t> next{0};
  size_t done = 0;
  std::mutex progress_mutex;
  auto work = [&] {
    for (size_t i; (i = next++) < units.size();) {
      out[i] = scan_unit(units[i], setup);
      if (options.progress) {
        std::lock_guard lock(progress_mutex);
        options.progress(units[i].file, ++done, units.size());
      }
    }
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < jobs; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return out;
}

/// Folds per-unit findings into manifest kernels, keyed by clang USR.
class Merger {
 public:
  explicit Merger(fs::path source_root) : root_(std::move(source_root)) {}

  void add(const UnitScan& unit, const CompileCommand& command) {
    for (const auto& uk : unit.kernels) {
      auto [it, fresh] = kernels_.try_emplace(uk.key, uk);
      Kernel& k = it->second.kernel;
      if (fresh) order_.push_back(uk.key);
      if (uk.kernel.fingerprint) fingerprints_[uk.key].insert(*uk.kernel.fingerprint);
      // Every unit's instantiations may reach other variables: the union,
      // unknown when any unit is unsure.
      if (!fresh) {
        if (!k.module_variables || !uk.kernel.module_variables) {
          k.module_variables.reset();
        } else {
          std::set<std::string> all(k.module_variables->begin(), k.module_variables->end());
          all.insert(uk.kernel.module_variables->begin(), uk.kernel.module_variables->end());
          k.module_variables = std::vector<std::string>(all.begin(), all.end());
        }
      }
      for (const auto& inst : uk.kernel.instantiations)
        if (std::none_of(k.instantiations.begin(), k.instantiations.end(),
                         [&](const Instantiation& i) { return i.mangled == inst.mangled; }))
          k.instantiations.push_back(inst);
      // The defining unit: for templates the first that instantiates it; else
      // the unit whose main file holds the kernel, else the first seen.
      bool instantiates = !uk.kernel.instantiations.empty();
      bool main_file = command.file == uk.kernel.file;
      if (!k.compile || (k.is_template && compile_instantiations_[uk.key] == 0 && instantiates) ||
          (!k.is_template && main_file && k.compile->file != k.file)) {
        k.compile = command;
        compile_instantiations_[uk.key] = uk.kernel.instantiations.size();
      }
    }
    for (const auto& ul : unit.launches) launches_.push_back(ul);
    for (const auto& d : unit.diagnostics) diagnostics_.push_back(d);
    for (const auto& declared : unit.declared_only) declared_only_.push_back(declared);
    for (const auto& [key, where] : unit.address_uses) address_uses_.try_emplace(key, where);
  }

  Manifest finish() {
    Manifest m;
    m.source_root = root_.string();
    for (const auto& ul : launches_) {
      auto it = kernels_.find(ul.key);
      if (it == kernels_.end()) continue;  // launch of a kernel defined outside the scanned units
      auto& launches = it->second.kernel.launches;
      bool dup = std::any_of(launches.begin(), launches.end(), [&](const Launch& l) {
        return l.file == ul.launch.file && l.config_range == ul.launch.config_range && l.line == ul.launch.line &&
               l.instantiation == ul.launch.instantiation;
      });
      if (!dup) launches.push_back(ul.launch);
    }
    std::set<std::string> files;
    for (const auto& key : order_) {
      UnitKernel& uk = kernels_.at(key);
      Kernel k = std::move(uk.kernel);
      // A kernel in a header means what every unit that sees it makes of it:
      // a change seen by any of them changes the fingerprint.
      if (auto f = fingerprints_.find(key); f != fingerprints_.end())
        k.fingerprint =
            f->second.size() == 1 ? *f->second.begin() : content_hash(fmt::format("{}", fmt::join(f->second, "\n")));
      files.insert(k.file);
      k.file = display_path(k.file, root_);
      k.id = k.file + ":" + k.qualified_name + (uk.overloaded ? uk.signature : "");
      for (auto& l : k.launches) {
        files.insert(l.file);
        l.file = display_path(l.file, root_);
      }
      std::sort(k.launches.begin(), k.launches.end(), [](const Launch& a, const Launch& b) {
        return std::tie(a.file, a.config_range.begin, a.line, a.instantiation) <
               std::tie(b.file, b.config_range.begin, b.line, b.instantiation);
      });
      k.fixed_launch = fixed_launch_reason(k, key);
      m.kernels.push_back(std::move(k));
    }
    std::sort(m.kernels.begin(), m.kernels.end(), [](const Kernel& a, const Kernel& b) {
      return std::tie(a.file, a.range.begin) < std::tie(b.file, b.range.begin);
    });
    for (const auto& f : files) {
      auto h = file_hash(f);
      m.files[display_path(f, root_)] = {h ? *h : std::string("unreadable")};
    }
    for (const auto& [key, where] : address_uses_)
      if (kernels_.count(key)) diagnostics_.push_back(where);  // once per kernel, at its first use
    for (const auto& [key, warning] : declared_only_)
      if (!kernels_.count(key)) diagnostics_.push_back(warning);
    // A header's problem is seen by every unit that includes it: report it once.
    std::set<std::tuple<std::string, int, int, std::string>> seen;
    for (auto d : diagnostics_) {
      if (!d.file.empty()) d.file = display_path(d.file, root_);
      if (seen.insert({d.file, d.line, d.column, d.message}).second) m.diagnostics.push_back(std::move(d));
    }
    return m;
  }

 private:
  /// Why a patch could not carry a new launch configuration for the kernel
  /// (Kernel::fixed_launch); empty when every launch of it can be rewritten.
  std::string fixed_launch_reason(const Kernel& k, const std::string& key) const {
    if (auto use = address_uses_.find(key); use != address_uses_.end())
      return fmt::format("it is used through a pointer at {}:{}, so some launches are out of sight",
                         display_path(use->second.file, root_), use->second.line);
    if (k.launches.empty()) return "no launch of it is in the scanned files";
    for (const auto& l : k.launches) {
      if (l.config_range.end <= l.config_range.begin)
        return fmt::format("its launch at {}:{} is written inside a macro", l.file, l.line);
      if (l.kind == LaunchKind::Api && !l.grid_range && !l.block_range)
        return fmt::format("its launch at {}:{} takes its shape from a launch config struct", l.file, l.line);
    }
    return {};
  }

  fs::path root_;
  std::map<std::string, UnitKernel> kernels_;
  std::map<std::string, size_t> compile_instantiations_;
  std::map<std::string, std::set<std::string>> fingerprints_;
  std::vector<std::string> order_;
  std::vector<UnitLaunch> launches_;
  std::vector<Diagnostic> diagnostics_;
  std::vector<std::pair<std::string, Diagnostic>> declared_only_;
  std::map<std::string, Diagnostic> address_uses_;
};

fs::path choose_source_root(const ScanOptions& options, const fs::path& cmake_source_dir,
                            const std::vector<CompileCommand>& units) {
  if (!options.source_root.empty()) return absolute_normal(options.source_root);
  if (!cmake_source_dir.empty()) return absolute_normal(cmake_source_dir);
  if (!units.empty())
    if (auto top = git_toplevel(fs::path(units[0].file).parent_path())) return *top;
  std::vector<fs::path> files;
  for (const auto& u : units) files.push_back(u.file);
  return common_ancestor(files);
}

}  // namespace

ScanOutput scan_units(const std::vector<CompileCommand>& units, const ClangSetup& setup, const fs::path& source_root,
                      const ScanOptions& options) {
  std::vector<UnitScan> scans = parse_all(units, setup, options);
  Merger merger(source_root);
  ScanOutput out;
  for (size_t i = 0; i < units.size(); ++i) {
    merger.add(scans[i], units[i]);
    out.timings.push_back({display_path(units[i].file, source_root), scans[i].seconds});
    out.cuda_wrappers.push_back(scans[i].cuda_wrappers);
  }
  out.manifest = merger.finish();
  return out;
}

Expected<ScanOutput> scan_build(const ScanOptions& options) {
  auto setup = locate_clang_setup();
  if (!setup) return setup.error();
  auto build = load_build_info(options.build_dir, options.target, options.config);
  if (!build) return build.error();
  fs::path root = choose_source_root(options, build->cmake_source_dir, build->units);
  ScanOutput out = scan_units(build->units, *setup, root, options);
  out.manifest.build_dir = build->build_dir.string();
  if (options.config.empty() && build->configurations.size() > 1)
    out.manifest.diagnostics.push_back(
        {"", 0, 0, Severity::Warning,
         fmt::format("this build has the configurations {}; scanned with {}'s flags (--config NAME picks another)",
                     join(build->configurations, ", "), build->configuration)});
  if (build->units.empty())
    out.manifest.diagnostics.push_back({"", 0, 0, Severity::Warning,
                                        options.target.empty()
                                            ? fmt::format("'{}' compiles no CUDA file", build->build_dir.string())
                                            : fmt::format("target '{}' compiles no CUDA file", options.target)});
  return out;
}

}  // namespace stark
