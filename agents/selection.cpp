#include "agents/selection.h"

#include <algorithm>
#include <vector>

namespace stark {

namespace {

int pending(const std::map<int, int>& in_flight, int id) {
  auto it = in_flight.find(id);
  return it == in_flight.end() ? 0 : it->second;
}

// True when a child of the node is correct and faster than it. An untimed
// node counts as beaten: there is nothing to compare with.
bool beaten(const SearchTree& tree, const SearchNode& n) {
  if (!n.time_us) return true;
  return std::any_of(n.children.begin(), n.children.end(), [&](int c) {
    const SearchNode& child = tree.node(c);
    return child.state == NodeState::Correct && child.time_us && *child.time_us < *n.time_us;
  });
}

}  // namespace

bool is_selectable(const SearchTree& tree, int id, const SelectionRules& rules, const std::map<int, int>& in_flight) {
  const SearchNode& n = tree.node(id);
  bool exhausted = std::any_of(n.children.begin(), n.children.end(),
                               [&](int c) { return tree.node(c).status == NodeStatus::Exhausted; });
  if (exhausted) return false;  // the role that expands it (plan, or debug for a failed node) has nothing more
  if (id == 0) {
    // Only children that produced a candidate use up the root's slots: a
    // plan lost to a failing API is no idea explored. Until one of them is
    // faster than the original the root stays open: refining ideas that all
    // lost to the original is the worse use of an attempt.
    int tried = pending(in_flight, id);
    for (int c : n.children)
      tried += !tree.node(c).candidate().source.empty() && tree.node(c).status != NodeStatus::Duplicate;
    return n.healthy() && (tried < rules.n_root || !beaten(tree, n));
  }
  if (!n.healthy() && n.candidate().source.empty()) return false;  // failed before writing code: nothing to debug
  if (n.status == NodeStatus::Duplicate) return false;  // nothing wrong with it to debug, nothing new to build on
  bool all_failed =
      std::all_of(n.children.begin(), n.children.end(), [&](int c) { return tree.node(c).state == NodeState::Failed; });
  if (static_cast<int>(n.children.size()) > rules.n_child && all_failed) return false;  // dead branch
  return true;
}

std::optional<Selection> select_node(const SearchTree& tree, const SelectionRules& rules, std::mt19937_64& rng,
                                     const std::map<int, int>& in_flight) {
  std::vector<int> selectable, leaves;
  for (const auto& n : tree.nodes()) {
    if (!is_selectable(tree, n.id, rules, in_flight)) continue;
    selectable.push_back(n.id);
    if (n.children.empty() && pending(in_flight, n.id) == 0 && n.id != 0) leaves.push_back(n.id);
  }
  if (selectable.empty()) return std::nullopt;

  // Always draw, so the random stream does not depend on whether there are leaves.
  double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  int chosen;
  if (u < rules.epsilon && !leaves.empty()) {
    chosen = leaves[std::uniform_int_distribution<size_t>(0, leaves.size() - 1)(rng)];
  } else {
    chosen = *std::min_element(selectable.begin(), selectable.end(), [&](int a, int b) {
      double sa = tree.node(a).score(), sb = tree.node(b).score();
      return sa < sb || (sa == sb && a < b);
    });
  }
  const SearchNode& n = tree.node(chosen);
  return Selection{chosen, n.healthy() ? Expansion::PlanCode : Expansion::Debug};
}

}  // namespace stark
