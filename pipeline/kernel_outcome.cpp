#include "pipeline/kernel_outcome.h"

#include <algorithm>

#include "core/check_names.h"

namespace stark {

namespace {

/// Strategies on the path from the root to a node, root first.
std::vector<std::string> path_strategies(const SearchTree& tree, int id) {
  std::vector<std::string> out;
  for (std::optional<int> n = id; n && *n != 0; n = tree.node(*n).parent)
    if (!tree.node(*n).strategy.empty()) out.push_back(tree.node(*n).strategy);
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace

KernelResult kernel_result(const Kernel& kernel, const SearchOutcome& outcome) {
  const SearchTree& tree = outcome.tree;
  const SearchNode& root = tree.root();
  KernelResult k;
  k.id = kernel.id;
  k.attempts = outcome.attempts;
  k.tokens = outcome.usage.tokens;
  if (outcome.usage.cost_usd > 0) k.cost_usd = outcome.usage.cost_usd;
  k.tree = tree.to_result_nodes();
  k.baseline_us = root.time_us;

  if (root.state == NodeState::Failed) {
    k.status = KernelStatus::Failed;
    k.checks = root.checks;
    return k;
  }
  if (root.state == NodeState::Untimed) {
    k.status = KernelStatus::Untimed;
    return k;
  }
  std::optional<int> best = tree.best();
  if (!best || !tree.node(*best).speedup || *tree.node(*best).speedup < kMinSpeedup) {
    k.status = KernelStatus::NoGain;
    if (best) k.best_us = tree.node(*best).time_us;
    if (best) k.captures = tree.node(*best).captures;
    return k;
  }
  const SearchNode& b = tree.node(*best);
  k.status = KernelStatus::Improved;
  k.baseline_us = b.baseline_us.value_or(root.time_us.value_or(0));
  k.best_us = b.time_us;
  k.speedup = b.speedup;
  k.captures = b.captures;
  Variant v = b.candidate();
  v.kernel = kernel.id;
  k.best = v;
  k.checks = b.checks;
  k.strategies = path_strategies(tree, *best);
  for (const auto& c : b.checks)
    if (c.name == CheckName::RestrictAssumption && !c.detail.empty()) k.assumptions.push_back(c.detail);
  return k;
}

}  // namespace stark
