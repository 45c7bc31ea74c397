// The strategic search of one kernel (docs/design.md, "The method"): select a node,
// expand it with the team (plan+code for healthy nodes, debug for failed
// ones), validate and evaluate the candidate, add it to the tree, repeat
// until the budget is spent. Several expansions run at once; results are
// committed in selection order, so the tree depends only on the seed, the
// replies and the evaluations. State is saved after every node.
#ifndef STARK_AGENTS_SEARCH_H
#define STARK_AGENTS_SEARCH_H

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "agents/search_tree.h"
#include "agents/selection.h"
#include "agents/team.h"
#include "core/evaluator.h"
#include "core/variant_validator.h"

namespace stark {

struct SearchOptions {
  int budget = 30;   // attempts: one evaluated (or failed) candidate each
  uint64_t seed = 0;
  SelectionRules rules;
  int parallel = 4;  // expansions in flight at once; part of the search, not of the hardware
  std::optional<double> max_cost_usd;                 // stop once the team has cost this much
  std::optional<std::chrono::duration<double>> time_limit;  // wall clock for this kernel
  std::filesystem::path state_file;                    // empty: no saving, no resuming
  /// Called after each node is committed (from the search's thread).
  std::function<void(const SearchTree&, const SearchNode&)> on_node;
};

struct SearchOutcome {
  SearchTree tree;
  int attempts = 0;
  RoleUsage usage;
  std::string stopped;  // why it stopped: "budget", "cost limit", "time limit", "nothing left to expand", "baseline failed"
  bool resumed = false;
};

/// Runs (or resumes) the search of brief.kernel. The caller owns the team,
/// evaluator and validator; all three must be thread-safe.
SearchOutcome run_search(const KernelBrief& brief, Team& team, Evaluator& evaluator, VariantValidator& validator,
                         const SearchOptions& options);

/// The node an evaluation makes (state, status, time, diagnostics).
void apply_evaluation(SearchNode& node, const Evaluation& evaluation);

}  // namespace stark

#endif  // STARK_AGENTS_SEARCH_H
