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

Expected<Result> run_optimize(const Manifest& manifest, Evaluator& evaluator, VariantValidator& validator, Team& team,
                              const InputsFn& inputs, const OptimizeOptions& options, const OptimizeHooks& hooks) {
  auto say = [&](const std::string& m) {
    if (hooks.message) hooks.message(m);
  };
  auto chosen = select_kernels(manifest, options.kernels);
  if (!chosen) return chosen.error();
  const std::vector<const Kernel*>& selected = *chosen;

  Result result;
  result.source_root = manifest.source_root;
  result.build_dir = manifest.build_dir;
  result.manifest = options.manifest_path;
  result.gpu = evaluator.gpu();
  result.backend = team.info();
  result.seed = static_cast<int64_t>(options.seed);
  auto save = [&]() -> Expected<void> {
    return write_json_file(options.out_dir / "result.json", nlohmann::json(result));
  };
  if (auto ok = save(); !ok) return ok.error();
  auto budget_of = [&](const Kernel& k) { return kernel_budget(k, options.budget, options.budget_cap); };
  auto seed_of = [&](const Kernel& k) {
    return k.options.seed ? static_cast<uint64_t>(*k.options.seed) : options.seed;
  };
  std::vector<const Kernel*> searched;
  for (const Kernel* k : selected)
    if (!(k->options.skip.value_or(false) && options.kernels.empty())) searched.push_back(k);
  auto search_options = [&](const Kernel& k) {
    SearchOptions so;
    so.budget = budget_of(k);
    so.seed = seed_of(k);
    so.parallel = options.parallel;
    so.rules = kernel_rules(k, options.rules, options.given);
    so.temperatures = kernel_temperatures(k, options.given);
    return so;
  };
  std::map<std::string, CacheLookup> cached =
      look_up_all(manifest, searched, options.cache, options.parallel, evaluator, validator, [&](const Kernel& k) {
        return KernelKeyParams{budget_of(k),   seed_of(k), options.parallel,
                               result.backend, result.gpu, search_identity(team, search_options(k))};
      });

  double spent = 0;
  bool temperature_warned = false;
  for (const Kernel* kernel : selected) {
    bool skip = kernel->options.skip.value_or(false) && options.kernels.empty();
    int budget = budget_of(*kernel);
    if (skip) {
      KernelResult k;
      k.id = kernel->id;
      k.status = KernelStatus::Skipped;
      result.kernels.push_back(k);
      if (hooks.end_kernel) hooks.end_kernel(k);
      (void)save();
      continue;
    }
    auto brief = make_brief(manifest, *kernel, inputs ? inputs(*kernel) : CapturedInputs{}, result.gpu);
    if (!brief) {
      say(fmt::format("{}: {}", kernel->id, brief.error().message));
      KernelResult k;
      k.id = kernel->id;
      k.status = KernelStatus::Failed;
      k.checks.push_back({"source", false, brief.error().message});
      result.kernels.push_back(k);
      if (hooks.end_kernel) hooks.end_kernel(k);
      (void)save();
      continue;
    }
    auto lookup = cached.find(kernel->id);
    if (lookup != cached.end() && !lookup->second.note.empty())
      say(fmt::format("{}: {}", kernel->id, lookup->second.note));
    if (lookup != cached.end() && lookup->second.hit) {
      const KernelResult& k = *lookup->second.hit;
      if (hooks.begin_kernel) hooks.begin_kernel(*kernel, budget, k.baseline_us);
      result.kernels.push_back(k);
      if (hooks.end_kernel) hooks.end_kernel(k);
      if (auto ok = save(); !ok) return ok.error();
      continue;
    }
    if (hooks.begin_kernel) hooks.begin_kernel(*kernel, budget, std::nullopt);

    SearchOptions so = search_options(*kernel);
    if (options.max_cost_usd) so.max_cost_usd = std::max(0.0, *options.max_cost_usd - spent);
    if (options.kernel_time_limit_s) so.time_limit = std::chrono::duration<double>(*options.kernel_time_limit_s);
    so.state_file = state_file(options.out_dir, kernel->id, search_identity(team, so));
    if (options.fresh) {
      std::error_code ec;
      fs::remove(so.state_file, ec);
    }
    so.on_node = [&](const SearchTree&, const SearchNode& n) {
      if (!n.temperature_dropped.empty() && !temperature_warned) {
        temperature_warned = true;
        say(
            fmt::format("warning: the model does not take a temperature: the {} role{} replied at its default "
                        "(each such node says so in result.json)",
                        join(n.temperature_dropped, "/"), n.temperature_dropped.size() == 1 ? "" : "s"));
      }
      if (hooks.attempt) hooks.attempt(*kernel, n);
    };
    SearchOutcome outcome = run_search(*brief, team, evaluator, validator, so);
    spent += outcome.usage.cost_usd;
    if (outcome.resumed)
      say(fmt::format("{}: resumed a saved search ({} attempts already made)", kernel->id,
                      std::min(outcome.attempts, budget)));
    if (outcome.stopped != "budget" && outcome.stopped != "baseline failed")
      say(fmt::format("{}: search stopped early: {}", kernel->id, outcome.stopped));
    KernelResult k = kernel_result(*kernel, outcome);
    if (lookup != cached.end()) {
      k.cache = options.cache.read ? CacheState::Miss : CacheState::Off;
      if (auto stored = store_result(options.cache, *kernel, lookup->second, k, outcome.stopped); !stored)
        say(fmt::format("{}: could not store the result in the cache: {}", kernel->id, stored.error().message));
    }
    result.kernels.push_back(k);
    if (hooks.end_kernel) hooks.end_kernel(k);
    if (auto ok = save(); !ok) return ok.error();
  }
  return result;
}

}  // namespace stark
