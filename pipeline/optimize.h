// `stark optimize` as a library: for every selected kernel of a manifest,
// brief the team, run the search against the evaluator, and write the
// result directory (result.json, one search state per kernel) as it goes,
// so an interrupted run keeps what it found and resumes where it stopped.
// With a result cache, a kernel searched before under the same key is not
// searched again: the cached result is re-verified and reused.
#ifndef STARK_PIPELINE_OPTIMIZE_H
#define STARK_PIPELINE_OPTIMIZE_H

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "agents/search.h"
#include "agents/team.h"
#include "core/evaluator.h"
#include "core/expected.h"
#include "core/manifest.h"
#include "core/result.h"
#include "core/variant_validator.h"
#include "pipeline/cached_results.h"

namespace stark {

inline constexpr int kDefaultBudget = 30;  // the paper's B
/// Attempts per kernel without a GPU (unless --budget says otherwise):
/// nothing is timed, so the search cannot rank candidates; a few attempts
/// show that they compile, more would only cost time.
inline constexpr int kUntimedBudget = 4;

/// A kernel's attempts: `budget` if given, else its annotation's, else
/// kDefaultBudget; never above `cap`.
inline int kernel_budget(const Kernel& k, std::optional<int> budget, std::optional<int> cap) {
  int b = budget.value_or(static_cast<int>(k.options.budget.value_or(kDefaultBudget)));
  return cap ? std::min(b, *cap) : b;
}

/// One kernel's search rules: `given` (the command line's) where set, else the
/// kernel's annotation, else `defaults`.
SelectionRules kernel_rules(const Kernel& k, const SelectionRules& defaults, const SearchSettings& given);

/// The role temperatures an annotation asks for, where the command line gave
/// none for that role (the team holds the command line's).
RoleTemperatures kernel_temperatures(const Kernel& k, const SearchSettings& given);

struct OptimizeOptions {
  std::filesystem::path out_dir;
  std::string manifest_path;         // recorded in result.json
  std::vector<std::string> kernels;  // ids to optimize; empty: every kernel not marked skip=true
  std::optional<int> budget;         // overrides every kernel's; else the annotation's, else kDefaultBudget
  std::optional<int> budget_cap;     // at most this many attempts per kernel, whatever the above says
  uint64_t seed = 0;                 // a kernel's annotation seed wins
  int parallel = 4;
  SelectionRules rules;                       // the search's hyperparameters: the command line's, else the defaults
  SearchSettings given;                       // those the command line gave: they win over a kernel's annotation
  std::optional<double> max_cost_usd;         // over the whole run
  std::optional<double> kernel_time_limit_s;  // per kernel
  bool fresh = false;                         // ignore saved search states
  CacheSettings cache;                        // the result cache; off by default
};

/// Callbacks for progress displays; all optional.
struct OptimizeHooks {
  std::function<void(const Kernel&, int budget, std::optional<double> baseline_us)> begin_kernel;
  std::function<void(const Kernel&, const SearchNode&)> attempt;
  std::function<void(const KernelResult&)> end_kernel;
  std::function<void(const std::string&)> message;
};

/// Inputs of a kernel described for its brief (capture shapes and scalars).
using InputsFn = std::function<CapturedInputs(const Kernel&)>;

/// Runs the search of every selected kernel. An Error when no kernel can be
/// attempted at all (unknown --kernel ids, an unwritable output folder);
/// otherwise the result, also written to out_dir/result.json.
Expected<Result> run_optimize(const Manifest& manifest, Evaluator& evaluator, VariantValidator& validator, Team& team,
                              const InputsFn& inputs, const OptimizeOptions& options, const OptimizeHooks& hooks = {});

/// `stark optimize --dry-run`: for every selected kernel, each role asked
/// once (preview_roles) through the team's dry-run client, which prints the
/// prompts. Nothing is evaluated, saved or cached. Returns how many kernels
/// were previewed; an Error for unknown --kernel ids.
Expected<int> preview_optimize(const Manifest& manifest, Team& team, const InputsFn& inputs,
                               const OptimizeOptions& options, const OptimizeHooks& hooks = {});

/// The file a kernel's search state is saved in, under out_dir/state/: one
/// per kernel and kind of search (search, from search_identity()).
std::filesystem::path state_file(const std::filesystem::path& out_dir, const std::string& kernel_id,
                                 const std::string& search);

}  // namespace stark

#endif  // STARK_PIPELINE_OPTIMIZE_H
