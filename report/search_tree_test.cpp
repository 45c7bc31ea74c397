#include "report/search_tree.h"

#include <gtest/gtest.h>

#include <set>

#include "report/test_data.h"

namespace stark::report {
namespace {

using testing::kernel_named;
using testing::load_test_input;

TreeNode node(int id, std::optional<int> parent, NodeStatus status, std::optional<double> t = std::nullopt) {
  return {id, parent, parent ? NodeRole::PlanCode : NodeRole::Root, status, t, "", std::nullopt, ""};
}

TEST(SearchTree, ThirtyNodeTreeHasTheWinnerAndItsPath) {
  auto in = load_test_input();
  const auto& saxpy = kernel_named(in, "saxpy").result;
  auto view = make_tree_view(saxpy);
  ASSERT_EQ(view.nodes.size(), 30u);
  ASSERT_TRUE(view.best);
  EXPECT_EQ(*view.best, 24);
  EXPECT_EQ(view.best_path, (std::vector<int>{0, 1, 4, 8, 12, 13, 16, 17, 20, 21, 22, 24}));
  EXPECT_EQ(view.find(24)->node.time_us, 224.0);
  for (const auto& n : view.nodes)
    EXPECT_EQ(n.on_best_path, std::count(view.best_path.begin(), view.best_path.end(), n.node.id) == 1);
}

TEST(SearchTree, LayoutGivesLeavesTheirOwnSlotsAndCentresParents) {
  auto in = load_test_input();
  auto view = make_tree_view(kernel_named(in, "saxpy").result);
  std::set<double> leaf_slots;
  size_t leaves = 0;
  for (const auto& n : view.nodes) {
    if (n.children.empty()) {
      ++leaves;
      leaf_slots.insert(n.x);
      continue;
    }
    double lo = view.find(n.children.front())->x, hi = view.find(n.children.back())->x;
    EXPECT_DOUBLE_EQ(n.x, (lo + hi) / 2) << "node " << n.node.id;
    for (int c : n.children) EXPECT_EQ(view.find(c)->depth, n.depth + 1);
  }
  EXPECT_EQ(leaf_slots.size(), leaves);
  EXPECT_DOUBLE_EQ(view.width, static_cast<double>(leaves));
  EXPECT_EQ(view.max_depth, 13);  // 0 -> 1 -> 4 -> 8 -> 12 -> 13 -> 16 -> 17 -> 20 -> 21 -> 22 -> 24 -> 25 -> 26
}

TEST(SearchTree, NoWinnerForAKernelThatFailed) {
  auto in = load_test_input();
  auto view = make_tree_view(kernel_named(in, "histogram").result);
  EXPECT_FALSE(view.best);
  EXPECT_TRUE(view.best_path.empty());
  EXPECT_EQ(view.nodes.size(), 7u);
}

TEST(SearchTree, WithoutABestVariantTheFastestAcceptedAttemptOfAnImprovedKernelWins) {
  KernelResult k;
  k.status = KernelStatus::Improved;
  k.tree = {node(0, std::nullopt, NodeStatus::Accepted, 10), node(1, 0, NodeStatus::Accepted, 6),
            node(2, 1, NodeStatus::Accepted, 4), node(3, 0, NodeStatus::Rejected), node(4, 0, NodeStatus::Accepted, 5)};
  auto view = make_tree_view(k);
  ASSERT_TRUE(view.best);
  EXPECT_EQ(*view.best, 2);
  EXPECT_EQ(view.best_path, (std::vector<int>{0, 1, 2}));
  k.status = KernelStatus::NoGain;
  EXPECT_FALSE(make_tree_view(k).best);
}

TEST(SearchTree, OrphansAndCyclesAreStillDrawn) {
  KernelResult k;
  k.tree = {node(0, std::nullopt, NodeStatus::Accepted, 10),
            node(1, 0, NodeStatus::Accepted, 6),
            node(5, 9, NodeStatus::Rejected),
            node(7, 8, NodeStatus::Error),
            node(8, 7, NodeStatus::Error),
            node(3, 3, NodeStatus::Error)};
  auto view = make_tree_view(k);
  ASSERT_EQ(view.nodes.size(), 6u);
  std::set<double> slots;
  for (const auto& n : view.nodes)
    if (n.children.empty()) slots.insert(n.x);
  EXPECT_EQ(slots.size(), 4u);  // leaves 1, 5, 3 and the end of the 7 <-> 8 cycle
  EXPECT_EQ(attempts_in_order(k).size(), 5u);
}

TEST(SearchTree, AttemptsAreInIdOrderWithoutTheRoot) {
  KernelResult k;
  k.tree = {node(3, 0, NodeStatus::Accepted, 1), node(0, std::nullopt, NodeStatus::Accepted, 2),
            node(1, 0, NodeStatus::Rejected)};
  auto a = attempts_in_order(k);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0]->id, 1);
  EXPECT_EQ(a[1]->id, 3);
}

}  // namespace
}  // namespace stark::report
