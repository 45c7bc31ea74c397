#include "agents/selection.h"

#include <gtest/gtest.h>

namespace stark {
namespace {

SearchNode node(int parent, NodeState state, std::optional<double> t = std::nullopt) {
  SearchNode n;
  n.parent = parent;
  n.state = state;
  n.time_us = t;
  n.variant = Variant{"", "__global__ void k() {}", {}};
  return n;
}

SearchTree root_tree(double root_time = 100) {
  SearchNode root;
  root.state = NodeState::Correct;
  root.time_us = root_time;
  return SearchTree(root);
}

TEST(Selection, GreedyPicksTheFastestNode) {
  SearchTree t = root_tree();
  t.add(node(0, NodeState::Correct, 50));
  int fast = t.add(node(0, NodeState::Correct, 20));
  t.add(node(0, NodeState::Failed));
  std::mt19937_64 rng(1);
  SelectionRules greedy{5, 3, 0.0};
  auto s = select_node(t, greedy, rng);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->node, fast);
  EXPECT_EQ(s->expansion, Expansion::PlanCode);
}

TEST(Selection, RootIsThrottledOnceAChildBeatsIt) {
  SearchTree t = root_tree(100);
  for (int i = 0; i < 4; ++i) t.add(node(0, NodeState::Correct, 150 + i));
  t.add(node(0, NodeState::Correct, 90));  // faster than the original
  std::mt19937_64 rng(1);
  SelectionRules greedy{5, 3, 0.0};
  EXPECT_FALSE(is_selectable(t, 0, greedy, {}));
  EXPECT_EQ(select_node(t, greedy, rng)->node, 5);
  SearchTree u = root_tree(100);
  for (int i = 0; i < 3; ++i) u.add(node(0, NodeState::Correct, 150));
  u.add(node(0, NodeState::Correct, 50));
  EXPECT_TRUE(is_selectable(u, 0, greedy, {}));
  EXPECT_FALSE(is_selectable(u, 0, greedy, {{0, 1}}));  // an expansion in flight counts
}

TEST(Selection, ARootNoChildBeatsStaysOpen) {
  // Five ideas, all slower than the original or wrong: a sixth from the
  // root, not a refinement of a loser.
  SearchTree t = root_tree(10);
  for (int i = 0; i < 4; ++i) t.add(node(0, NodeState::Correct, 50 + i));
  t.add(node(0, NodeState::Failed));
  std::mt19937_64 rng(1);
  SelectionRules greedy{5, 3, 0.0};
  EXPECT_TRUE(is_selectable(t, 0, greedy, {}));
  EXPECT_EQ(select_node(t, greedy, rng)->node, 0);
  // An equally fast child does not beat it either.
  SearchTree u = root_tree(10);
  for (int i = 0; i < 5; ++i) u.add(node(0, NodeState::Correct, 10));
  EXPECT_TRUE(is_selectable(u, 0, greedy, {}));
}

TEST(Selection, AnUntimedRootIsThrottledAsThePaperSays) {
  SearchNode root;
  root.state = NodeState::Untimed;
  SearchTree t(root);
  for (int i = 0; i < 5; ++i) t.add(node(0, NodeState::Untimed));
  EXPECT_FALSE(is_selectable(t, 0, SelectionRules{}, {}));
}

TEST(Selection, DeadBranchesArePruned) {
  SearchTree t = root_tree();
  int bad = t.add(node(0, NodeState::Failed));
  for (int i = 0; i < 3; ++i) t.add(node(bad, NodeState::Failed));
  SelectionRules rules;
  EXPECT_TRUE(is_selectable(t, bad, rules, {}));  // 3 failed children: not more than n_child
  t.add(node(bad, NodeState::Failed));
  EXPECT_FALSE(is_selectable(t, bad, rules, {}));
  int ok = t.add(node(bad, NodeState::Correct, 5));
  EXPECT_TRUE(is_selectable(t, bad, rules, {}));  // not all failed any more
  (void)ok;
}

TEST(Selection, ExplorationPicksLeavesAndFailedLeavesGetDebugged) {
  SearchTree t = root_tree();
  int a = t.add(node(0, NodeState::Correct, 50));
  SearchNode broken = node(a, NodeState::Failed);
  broken.variant = Variant{"", "__global__ void k() { oops }", {}};
  int f = t.add(broken);
  SearchNode no_code = node(0, NodeState::Failed);
  no_code.variant.reset();  // failed before writing code: never debugged
  t.add(no_code);
  SelectionRules explore{5, 3, 1.0};
  std::mt19937_64 rng(7);
  auto s = select_node(t, explore, rng);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->node, f);  // the only leaf
  EXPECT_EQ(s->expansion, Expansion::Debug);
}

TEST(Selection, ChildrenWithoutCodeDoNotUseUpTheRoot) {
  SearchTree t = root_tree();
  for (int i = 0; i < 5; ++i) {
    SearchNode n = node(0, NodeState::Failed);
    n.variant.reset();  // e.g. the API failed before a plan came back
    t.add(n);
  }
  SelectionRules rules;
  EXPECT_TRUE(is_selectable(t, 0, rules, {}));
}

TEST(Selection, SameSeedSameChoices) {
  SearchTree t = root_tree();
  for (int i = 0; i < 4; ++i) t.add(node(0, NodeState::Correct, 30 + i));
  SelectionRules rules;
  std::mt19937_64 a(42), b(42);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(select_node(t, rules, a)->node, select_node(t, rules, b)->node);
}

}  // namespace
}  // namespace stark
