#include "agents/context_windows.h"

namespace stark {

namespace {

std::vector<const SearchNode*> nodes(const SearchTree& tree, const std::vector<int>& ids) {
  std::vector<const SearchNode*> out;
  for (int id : ids) out.push_back(&tree.node(id));
  return out;
}

}  // namespace

PlanInput plan_window(const SearchTree& tree, int node, const KernelBrief& brief, size_t top_r) {
  PlanInput in;
  in.brief = &brief;
  in.node = &tree.node(node);
  in.root = &tree.root();
  in.children = nodes(tree, tree.node(node).children);
  in.leaderboard = nodes(tree, tree.leaderboard(top_r));
  for (const auto& n : tree.nodes())
    if (n.parent && !n.strategy.empty()) in.tried.push_back(n.strategy);
  return in;
}

CodeInput code_window(const SearchTree& tree, int node, const KernelBrief& brief, Plan plan) {
  CodeInput in;
  in.brief = &brief;
  in.node = &tree.node(node);
  in.root = &tree.root();
  in.children = nodes(tree, tree.node(node).children);
  in.cousins = nodes(tree, tree.cousins(node));
  in.plan = std::move(plan);
  return in;
}

DebugInput debug_window(const SearchTree& tree, int node, const KernelBrief& brief) {
  DebugInput in;
  in.brief = &brief;
  in.node = &tree.node(node);
  if (in.node->parent) in.parent = &tree.node(*in.node->parent);
  in.root = &tree.root();
  in.siblings = nodes(tree, tree.siblings(node));
  return in;
}

}  // namespace stark
