// Dynamic context (docs/design.md, "The method"): each role sees its own window of
// the tree. Plan: node, root, children, top-r leaderboard. Code: node, root,
// children, cousins. Debug: node, root, siblings.
#ifndef STARK_AGENTS_CONTEXT_WINDOWS_H
#define STARK_AGENTS_CONTEXT_WINDOWS_H

#include "agents/search_tree.h"
#include "agents/team.h"

namespace stark {

inline constexpr size_t kLeaderboardSize = 3;

PlanInput plan_window(const SearchTree& tree, int node, const KernelBrief& brief);
CodeInput code_window(const SearchTree& tree, int node, const KernelBrief& brief, Plan plan);
DebugInput debug_window(const SearchTree& tree, int node, const KernelBrief& brief);

}  // namespace stark

#endif  // STARK_AGENTS_CONTEXT_WINDOWS_H
