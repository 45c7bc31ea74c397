// Which node the search expands next: the paper's epsilon-greedy rule with
// root throttling, dead-branch pruning and leaf-biased exploration.
#ifndef STARK_AGENTS_SELECTION_H
#define STARK_AGENTS_SELECTION_H

#include <map>
#include <optional>
#include <random>

#include "agents/search_tree.h"

namespace stark {

/// The knobs of the search (docs/design.md, "The search"); the defaults are
/// the paper's values.
struct SelectionRules {
  int n_root = 5;         // the root may have at most this many children, once one beats it
  int n_child = 3;        // a node with more children than this, all failed, is pruned
  double epsilon = 0.35;  // probability of exploring a uniformly chosen expandable leaf
  int top_r = 3;          // the fastest nodes the plan role sees (its leaderboard)
};

enum class Expansion {
  PlanCode,  // healthy node: plan a transformation, then code it
  Debug,     // failed node: minimal fix from its diagnostics
};

struct Selection {
  int node = 0;
  Expansion expansion = Expansion::PlanCode;
  int proposal = 0;  // expansions of the same node already selected in this wave
};

/// Picks the next node to expand. in_flight counts expansions already
/// started under each node but not yet in the tree (they count as children
/// for throttling and leaf tests). nullopt when nothing is selectable.
/// Deterministic for a given tree, in_flight and rng state.
std::optional<Selection> select_node(const SearchTree& tree, const SelectionRules& rules, std::mt19937_64& rng,
                                     const std::map<int, int>& in_flight = {});

/// True when the node may be expanded under the rules.
bool is_selectable(const SearchTree& tree, int id, const SelectionRules& rules, const std::map<int, int>& in_flight);

}  // namespace stark

#endif  // STARK_AGENTS_SELECTION_H
