#include "pipeline/optimize.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <map>

#include "core/file_io.h"
#include "core/hash.h"
#include "core/text.h"
#include "pipeline/kernel_brief.h"
#include "pipeline/kernel_outcome.h"

namespace stark {

namespace fs = std::filesystem;

fs::path state_file(const fs::path& out_dir, const std::string& kernel_id, const std::string& search) {
  std::string name;
  for (char c : kernel_id) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (name.size() > 80) name = name.substr(0, 80);
  // The first hash keeps two ids that sanitise alike apart; the second keeps
  // each kind of search (search_identity) in a file of its own.
  return out_dir / "state" /
         fmt::format("{}-{}-{}.json", name, content_hash(kernel_id).substr(6, 8), content_hash(search).substr(6, 8));
}

namespace {

/// The kernels --kernel names (all of them without it); an Error naming an
/// unknown id, with the ids it might mean.
Expected<std::vector<const Kernel*>> select_kernels(const Manifest& manifest, const std::vector<std::string>& ids) {
  for (const auto& id : ids)
    if (!manifest.find_kernel(id)) {
      // Users type the kernel's name; ids are file:qualified name.
      std::vector<std::string> near;
      for (const auto& k : manifest.kernels)
        if (!id.empty() && k.id.find(id) != std::string::npos) near.push_back(k.id);
      std::string hint = near.size() == 1 ? fmt::format("; did you mean '{}'?", near[0])
                         : near.size() > 1
                             ? fmt::format("; it matches {} ids (`stark scan -p BUILD --list` lists them)", near.size())
                             : " (`stark scan -p BUILD --list` lists the kernel ids)";
      return Error{fmt::format("no kernel '{}' in the manifest{}", id, hint)};
    }
  std::vector<const Kernel*> selected;
  for (const auto& k : manifest.kernels)
    if (ids.empty() || std::find(ids.begin(), ids.end(), k.id) != ids.end()) selected.push_back(&k);
  if (selected.empty()) return Error{"the manifest has no [[stark::optimize]] kernel to optimize"};
  return selected;
}

}  // namespace

SelectionRules kernel_rules(const Kernel& k, const SelectionRules& defaults, const SearchSettings& given) {
  SearchSettings s = given.over(k.options.search);
  SelectionRules r = defaults;
  if (s.epsilon) r.epsilon = *s.epsilon;
  if (s.n_root) r.n_root = static_cast<int>(*s.n_root);
  if (s.n_child) r.n_child = static_cast<int>(*s.n_child);
  if (s.top_r) r.top_r = static_cast<int>(*s.top_r);
  return r;
}

RoleTemperatures kernel_temperatures(const Kernel& k, const SearchSettings& given) {
  const SearchSettings& a = k.options.search;
  RoleTemperatures t;
  if (!given.plan_temperature) t.plan = a.plan_temperature;
  if (!given.code_temperature) t.code = a.code_temperature;
  if (!given.debug_temperature) t.debug = a.debug_temperature;
  return t;
}

Expected<int> preview_optimize(const Manifest& manifest, Team& team, const InputsFn& inputs,
                               const OptimizeOptions& options, const OptimizeHooks& hooks) {
  auto selected = select_kernels(manifest, options.kernels);
  if (!selected) return selected.error();
  int previewed = 0;
  for (const Kernel* kernel : *selected) {
    if (kernel->options.skip.value_or(false) && options.kernels.empty()) continue;
    auto brief = make_brief(manifest, *kernel, inputs ? inputs(*kernel) : CapturedInputs{}, std::nullopt);
    if (!brief) {
      if (hooks.message) hooks.message(fmt::format("{}: {}", kernel->id, brief.error().message));
      continue;
    }
    preview_roles(*brief, team, kernel_rules(*kernel, options.rules, options.given));
    ++previewed;
  }
  return previewed;
}

namespace {

/// One `stark optimize` over the selected kernels: result.json written after
/// every kernel, each kernel's search with its own budget, seed and rules,
/// the cache consulted first and fed after.
class OptimizeRun {
 public:
  OptimizeRun(const Manifest& manifest, Evaluator& evaluator, VariantValidator& validator, Team& team,
              const InputsFn& inputs, const OptimizeOptions& options, const OptimizeHooks& hooks)
      : manifest_(manifest),
        evaluator_(evaluator),
        validator_(validator),
        team_(team),
        inputs_(inputs),
        options_(options),
        hooks_(hooks) {
    result_.source_root = manifest.source_root;
    result_.build_dir = manifest.build_dir;
    result_.manifest = options.manifest_path;
    result_.gpu = evaluator.gpu();
    result_.backend = team.info();
    result_.seed = static_cast<int64_t>(options.seed);
  }

  Expected<Result> run(const std::vector<const Kernel*>& selected) {
    if (auto ok = save(); !ok) return ok.error();
    std::vector<const Kernel*> searched;
    for (const Kernel* k : selected)
      if (!skipped(*k)) searched.push_back(k);
    cached_ = look_up_all(
        manifest_, searched, options_.cache, options_.parallel, evaluator_, validator_, [&](const Kernel& k) {
          return KernelKeyParams{budget_of(k),    seed_of(k),  options_.parallel,
                                 result_.backend, result_.gpu, search_identity(team_, search_options(k))};
        });
    for (const Kernel* kernel : selected)
      if (auto ok = optimize(*kernel); !ok) return ok.error();
    return result_;
  }

 private:
  void say(const std::string& m) const {
    if (hooks_.message) hooks_.message(m);
  }
  Expected<void> save() const { return write_json_file(options_.out_dir / "result.json", nlohmann::json(result_)); }
  bool skipped(const Kernel& k) const { return k.options.skip.value_or(false) && options_.kernels.empty(); }
  int budget_of(const Kernel& k) const { return kernel_budget(k, options_.budget, options_.budget_cap); }
  uint64_t seed_of(const Kernel& k) const {
    return k.options.seed ? static_cast<uint64_t>(*k.options.seed) : options_.seed;
  }
  SearchOptions search_options(const Kernel& k) const {
    SearchOptions so;
    so.budget = budget_of(k);
    so.seed = seed_of(k);
    so.parallel = options_.parallel;
    so.rules = kernel_rules(k, options_.rules, options_.given);
    so.temperatures = kernel_temperatures(k, options_.given);
    return so;
  }

  /// The kernel's line in result.json, saved; a failed save only matters
  /// where the kernel's search ran (a cache hit or a skip is cheap to redo).
  Expected<void> finish(const KernelResult& k, bool must_save) {
    result_.kernels.push_back(k);
    if (hooks_.end_kernel) hooks_.end_kernel(k);
    auto saved = save();
    return must_save ? saved : Expected<void>{};
  }

  Expected<void> optimize(const Kernel& kernel) {
    if (skipped(kernel)) {
      KernelResult k;
      k.id = kernel.id;
      k.status = KernelStatus::Skipped;
      return finish(k, false);
    }
    auto brief = make_brief(manifest_, kernel, inputs_ ? inputs_(kernel) : CapturedInputs{}, result_.gpu);
    if (!brief) {
      say(fmt::format("{}: {}", kernel.id, brief.error().message));
      KernelResult k;
      k.id = kernel.id;
      k.status = KernelStatus::Failed;
      k.checks.push_back({CheckName::Source, false, brief.error().message});
      return finish(k, false);
    }
    auto lookup = cached_.find(kernel.id);
    const CacheLookup* cached = lookup == cached_.end() ? nullptr : &lookup->second;
    if (cached && !cached->note.empty()) say(fmt::format("{}: {}", kernel.id, cached->note));
    if (cached && cached->hit) {
      if (hooks_.begin_kernel) hooks_.begin_kernel(kernel, budget_of(kernel), cached->hit->baseline_us);
      return finish(*cached->hit, true);
    }
    if (hooks_.begin_kernel) hooks_.begin_kernel(kernel, budget_of(kernel), std::nullopt);
    return finish(search(kernel, *brief, cached), true);
  }

  KernelResult search(const Kernel& kernel, const KernelBrief& brief, const CacheLookup* cached) {
    SearchOptions so = search_options(kernel);
    if (options_.max_cost_usd) so.max_cost_usd = std::max(0.0, *options_.max_cost_usd - spent_usd_);
    if (options_.kernel_time_limit_s) so.time_limit = std::chrono::duration<double>(*options_.kernel_time_limit_s);
    so.state_file = state_file(options_.out_dir, kernel.id, search_identity(team_, so));
    if (options_.fresh) {
      std::error_code ec;
      fs::remove(so.state_file, ec);
    }
    so.on_node = [&](const SearchTree&, const SearchNode& n) {
      if (!n.temperature_dropped.empty() && !temperature_warned_) {
        temperature_warned_ = true;
        say(
            fmt::format("warning: the model does not take a temperature: the {} role{} replied at its default "
                        "(each such node says so in result.json)",
                        join(n.temperature_dropped, "/"), n.temperature_dropped.size() == 1 ? "" : "s"));
      }
      if (hooks_.attempt) hooks_.attempt(kernel, n);
    };
    SearchOutcome outcome = run_search(brief, team_, evaluator_, validator_, so);
    spent_usd_ += outcome.usage.cost_usd;
    if (outcome.resumed)
      say(fmt::format("{}: resumed a saved search ({} attempts already made)", kernel.id,
                      std::min(outcome.attempts, budget_of(kernel))));
    if (outcome.stopped != "budget" && outcome.stopped != "baseline failed")
      say(fmt::format("{}: search stopped early: {}", kernel.id, outcome.stopped));
    KernelResult k = kernel_result(kernel, outcome);
    if (cached) {
      k.cache = options_.cache.read ? CacheState::Miss : CacheState::Off;
      if (auto stored = store_result(options_.cache, kernel, *cached, k, outcome.stopped); !stored)
        say(fmt::format("{}: could not store the result in the cache: {}", kernel.id, stored.error().message));
    }
    return k;
  }

  const Manifest& manifest_;
  Evaluator& evaluator_;
  VariantValidator& validator_;
  Team& team_;
  const InputsFn& inputs_;
  const OptimizeOptions& options_;
  const OptimizeHooks& hooks_;
  Result result_;
  std::map<std::string, CacheLookup> cached_;
  double spent_usd_ = 0;
  bool temperature_warned_ = false;
};

}  // namespace

Expected<Result> run_optimize(const Manifest& manifest, Evaluator& evaluator, VariantValidator& validator, Team& team,
                              const InputsFn& inputs, const OptimizeOptions& options, const OptimizeHooks& hooks) {
  auto selected = select_kernels(manifest, options.kernels);
  if (!selected) return selected.error();
  return OptimizeRun(manifest, evaluator, validator, team, inputs, options, hooks).run(*selected);
}

}  // namespace stark
