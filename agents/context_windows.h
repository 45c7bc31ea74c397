// Dynamic context (docs/design.md, "The method"): each role sees its own window of
// the tree. Plan: node, root, children, top-r leaderboard. Code: node, root,
// children, cousins. Debug: node, root, siblings.
#ifndef STARK_AGENTS_CONTEXT_WINDOWS_H
#define STARK_AGENTS_CONTEXT_WINDOWS_H

#include "agents/search_tree.h"
#include "agents/team.h"

namespace stark {

/// top_r: how many of the fastest nodes the plan role sees (SelectionRules::top_r).
PlanInput plan_window(const SearchTree& tree, int node, const KernelBrief& brief, size_t top_r);
CodeInput code_window(const SearchTree& tree, int node, const KernelBrief& brief, Plan plan);
DebugInput debug_window(const SearchTree& tree, int node, const KernelBrief& brief);

}  // namespace stark

#endif  // STARK_AGENTS_CONTEXT_WINDOWS_H
