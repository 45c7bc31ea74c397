#include "report/search_tree.h"

#include <algorithm>
#include <map>
#include <set>

namespace stark::report {

namespace {

struct Layout {
  std::map<int, PlacedNode*>& by_id;
  std::set<int> seen;
  double next_slot = 0;

  void place(PlacedNode& n, int depth) {
    seen.insert(n.node.id);
    n.depth = depth;
    std::vector<PlacedNode*> kids;
    for (int c : n.children)
      if (!seen.count(c)) kids.push_back(by_id.at(c));
    n.children.clear();  // only edges the layout follows: a cycle in a hand-written result is cut here
    for (auto* k : kids) n.children.push_back(k->node.id);
    if (kids.empty()) {
      n.x = next_slot++;
      return;
    }
    for (auto* k : kids) place(*k, depth + 1);
    n.x = (kids.front()->x + kids.back()->x) / 2;
  }
};

}  // namespace

bool is_accepted(const TreeNode& n) { return n.status == NodeStatus::Accepted && n.time_us.has_value(); }

const PlacedNode* TreeView::find(int id) const {
  auto it = std::lower_bound(nodes.begin(), nodes.end(), id, [](const PlacedNode& n, int v) { return n.node.id < v; });
  return it != nodes.end() && it->node.id == id ? &*it : nullptr;
}

TreeView make_tree_view(const KernelResult& k) {
  TreeView view;
  for (const auto& n : k.tree) view.nodes.push_back({n, 0, 0, {}, false});
  std::sort(view.nodes.begin(), view.nodes.end(),
            [](const PlacedNode& a, const PlacedNode& b) { return a.node.id < b.node.id; });
  view.nodes.erase(std::unique(view.nodes.begin(), view.nodes.end(),
                               [](const PlacedNode& a, const PlacedNode& b) { return a.node.id == b.node.id; }),
                   view.nodes.end());
  std::map<int, PlacedNode*> by_id;
  for (auto& n : view.nodes) by_id[n.node.id] = &n;
  for (auto& n : view.nodes)
    if (n.node.parent && by_id.count(*n.node.parent) && *n.node.parent != n.node.id)
      by_id[*n.node.parent]->children.push_back(n.node.id);

  Layout layout{by_id, {}, 0};
  for (auto& n : view.nodes)  // real roots first, then whatever a cycle left unreached
    if (!n.node.parent || !by_id.count(*n.node.parent)) layout.place(n, 0);
  for (auto& n : view.nodes)
    if (!layout.seen.count(n.node.id)) layout.place(n, 0);
  view.width = layout.next_slot;
  for (const auto& n : view.nodes) view.max_depth = std::max(view.max_depth, n.depth);

  const PlacedNode* best = nullptr;
  auto faster = [](const PlacedNode* a, const PlacedNode& b) { return !a || *b.node.time_us < *a->node.time_us; };
  if (k.best) {
    for (const auto& n : view.nodes)
      if (is_accepted(n.node) && n.node.variant && n.node.variant->source == k.best->source && faster(best, n))
        best = &n;
  } else if (k.status == KernelStatus::Improved) {
    for (const auto& n : view.nodes)
      if (is_accepted(n.node) && n.node.parent && faster(best, n)) best = &n;
  }
  if (best) {
    view.best = best->node.id;
    std::set<int> walked;
    for (const PlacedNode* n = best; n && walked.insert(n->node.id).second;
         n = n->node.parent ? view.find(*n->node.parent) : nullptr)
      view.best_path.insert(view.best_path.begin(), n->node.id);
    for (int id : view.best_path) by_id[id]->on_best_path = true;
  }
  return view;
}

std::vector<const TreeNode*> attempts_in_order(const KernelResult& k) {
  std::vector<const TreeNode*> out;
  for (const auto& n : k.tree)
    if (n.parent) out.push_back(&n);
  std::sort(out.begin(), out.end(), [](const TreeNode* a, const TreeNode* b) { return a->id < b->id; });
  return out;
}

}  // namespace stark::report
