// One attempt of the search (docs/design.md, "The method"): the roles for
// the selected node (plan then code, or debug), the grounding checks, the
// variant check and the evaluation, as one failed or evaluated node.
#ifndef STARK_AGENTS_EXPANDER_H
#define STARK_AGENTS_EXPANDER_H

#include <string>
#include <utility>

#include "agents/candidate_key.h"
#include "agents/search_tree.h"
#include "agents/selection.h"
#include "agents/team.h"
#include "core/evaluator.h"
#include "core/variant_validator.h"

namespace stark {

/// Expands selected nodes. Thread-safe as long as the team, evaluator and
/// validator are: each expansion reads only the tree it is given.
struct Expander {
  const KernelBrief& brief;
  Team& team;
  Evaluator& evaluator;
  VariantValidator& validator;
  const SelectionRules& rules;
  Deadline deadline;                // the kernel's --time-limit, for calls in progress
  RoleTemperatures temperatures{};  // the search's, given to each role call
  /// The search's candidates so far: a candidate already there is a
  /// duplicate, not evaluated again. Null: every candidate is evaluated.
  CandidateLedger* ledger = nullptr;

  /// The new node (its parent set, not yet in the tree) and what its roles
  /// cost; `seq` numbers the expansion (its claim in the ledger). Never
  /// throws: every failure is a failed node with its reason.
  std::pair<SearchNode, RoleUsage> expand(const SearchTree& tree, const Selection& sel, int seq = -1) const;

 private:
  /// Plan, grounding and code for a healthy node; fills n and variant, or
  /// returns the failed node.
  std::optional<SearchNode> plan_and_code(const SearchTree& tree, const Selection& sel, SearchNode& n, RoleUsage& usage,
                                          Variant& variant) const;
};

/// Adds u to total (tokens, cost, the roles whose temperature was dropped).
void add_usage(RoleUsage& total, const RoleUsage& u);

/// The node an evaluation makes (state, status, time, diagnostics, error sizes).
void apply_evaluation(SearchNode& node, const Evaluation& evaluation);

}  // namespace stark

#endif  // STARK_AGENTS_EXPANDER_H
