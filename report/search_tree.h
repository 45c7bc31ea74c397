// A kernel's search tree as the reports use it: the winning node, the path
// from the root to it, and a tidy layout for drawing.
#ifndef STARK_REPORT_SEARCH_TREE_H
#define STARK_REPORT_SEARCH_TREE_H

#include <optional>
#include <vector>

#include "core/result.h"

namespace stark::report {

/// One node placed for drawing: depth from its root, horizontal slot
/// (leaves take consecutive slots, a parent sits midway over its children).
struct PlacedNode {
  TreeNode node;
  int depth = 0;
  double x = 0;
  std::vector<int> children;  // ids, ascending
  bool on_best_path = false;
};

/// The whole tree. Nodes whose parent is missing (or that form a cycle in a
/// hand-written result) become roots of their own, so every node is drawn.
struct TreeView {
  std::vector<PlacedNode> nodes;  // ascending id
  std::optional<int> best;        // the node holding the kernel's best variant
  std::vector<int> best_path;     // root .. best
  int max_depth = 0;
  double width = 0;  // slots used: max x + 1

  const PlacedNode* find(int id) const;
};

/// Builds the view. The best node is the accepted node whose variant is the
/// result's `best` (the fastest such); without a `best`, the fastest accepted
/// non-root node of an improved kernel; otherwise none.
TreeView make_tree_view(const KernelResult& k);

/// The attempts in the order they were made: every node but roots, by id
/// (the search numbers nodes as it creates them).
std::vector<const TreeNode*> attempts_in_order(const KernelResult& k);

/// True for node statuses that mean "correct and timed".
bool is_accepted(const TreeNode& n);

}  // namespace stark::report

#endif  // STARK_REPORT_SEARCH_TREE_H
