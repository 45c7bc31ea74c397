// The strategic search of one kernel (docs/design.md, "The method"): select a node,
// expand it with the team (plan+code for healthy nodes, debug for failed
// ones), validate and evaluate the candidate, add it to the tree, repeat
// until the budget is spent. Up to `parallel` expansions are in flight; a
// new selection is made each time one finishes and is added to the tree
// (with parallel 1: the paper's loop, one at a time). The order of
// selections and commits is saved with the tree after every step, so an
// interrupted search resumes, and any search can be replayed.
#ifndef STARK_AGENTS_SEARCH_H
#define STARK_AGENTS_SEARCH_H

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "agents/expander.h"
#include "agents/search_state.h"
#include "agents/search_tree.h"
#include "agents/selection.h"
#include "agents/team.h"
#include "core/evaluator.h"
#include "core/variant_validator.h"

namespace stark {

struct SearchOptions {
  int budget = 30;  // attempts: one evaluated (or failed) candidate each
  uint64_t seed = 0;
  SelectionRules rules;
  RoleTemperatures temperatures;  // per role, over the team's (an annotation's)
  int parallel = 4;               // expansions in flight at once; part of the search, not of the hardware
  /// A recorded order to follow (recorded_order()): selections and commits
  /// happen in that order, so the same replies and verdicts rebuild the
  /// same tree whatever the timing; after it the search goes on as usual.
  std::vector<OrderEvent> replay;
  std::optional<double> max_cost_usd;                       // stop once the team has cost this much
  std::optional<std::chrono::duration<double>> time_limit;  // wall clock for this kernel
  std::filesystem::path state_file;                         // empty: no saving, no resuming
  /// Called after each node is committed (from the search's thread).
  std::function<void(const SearchTree&, const SearchNode&)> on_node;
};

struct SearchOutcome {
  SearchTree tree;
  int attempts = 0;
  RoleUsage usage;
  std::string
      stopped;  // why it stopped: "budget", "cost limit", "time limit", "nothing left to expand", "baseline failed"
  bool resumed = false;
};

/// What makes a search what it is, as canonical JSON: the team's identity,
/// the seed, the expansions in flight and the selection rules. A saved state
/// resumes only under the same identity (the budget may differ: a search can
/// be extended), and the result cache keys on it.
std::string search_identity(const Team& team, const SearchOptions& options);

/// Runs (or resumes) the search of brief.kernel. The caller owns the team,
/// evaluator and validator; all three must be thread-safe.
SearchOutcome run_search(const KernelBrief& brief, Team& team, Evaluator& evaluator, VariantValidator& validator,
                         const SearchOptions& options);

/// A dry run's work for one kernel: asks each role once, as the first steps
/// of a search would, without evaluating anything: plan on the original,
/// code with a placeholder plan over the kernel's body, debug with a
/// placeholder failure of that candidate. With a dry-run client each call
/// prints its prompt; the replies are not used.
void preview_roles(const KernelBrief& brief, Team& team, const SelectionRules& rules);

}  // namespace stark

#endif  // STARK_AGENTS_SEARCH_H
