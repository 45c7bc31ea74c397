#include "agents/prompt_builder.h"

#include <gtest/gtest.h>

#include "agents/context_windows.h"
#include "agents/prompts.h"

namespace stark {
namespace {

/// A plan+code node under parent with the given code and outcome.
SearchNode planned(int parent, std::string strategy, Variant v, NodeState state, NodeStatus status,
                   std::optional<double> time_us = std::nullopt) {
  SearchNode n;
  n.parent = parent;
  n.role = NodeRole::PlanCode;
  n.strategy = std::move(strategy);
  n.variant = std::move(v);
  n.state = state;
  n.status = status;
  n.time_us = time_us;
  return n;
}

TEST(PromptBuilder, ThreeSignificantDigits) {
  EXPECT_EQ(three_digits(1234.5), "1230");
  EXPECT_EQ(three_digits(12.345), "12.3");
  EXPECT_EQ(three_digits(0.012345), "0.0123");
  EXPECT_EQ(three_digits(4.0), "4.00");
  EXPECT_EQ(three_digits(999.7), "1000");
}

TEST(PromptBuilder, TemplatesNeedEveryValue) {
  EXPECT_EQ(render_template("a {{x}} b {{y}}", {{"x", "1"}, {"y", "2"}}), "a 1 b 2");
  EXPECT_THROW(render_template("{{missing}}", {}), std::logic_error);
  EXPECT_FALSE(prompt_version().empty());
}

TEST(PromptBuilder, RolesSeeTheirWindows) {
  Kernel k;
  k.id = "src/a.cu:saxpy";
  k.name = k.qualified_name = "saxpy";
  k.file = "src/a.cu";
  KernelBrief brief;
  brief.kernel = &k;
  brief.gpu = GpuInfo{"NVIDIA H200", "90", "580", "13.0", 132, 4800};
  brief.launch_sites = {"src/a.cu:40 in run(): saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y)"};
  SearchNode root;
  root.state = NodeState::Correct;
  root.time_us = 123.456;
  root.variant = Variant{"", "__global__ void saxpy() { /*root*/ }", {}};
  SearchTree tree(root);
  SearchNode a = planned(0, "vectorize", Variant{k.id, "__global__ void saxpy() { /*a*/ }", {}}, NodeState::Correct,
                         NodeStatus::Accepted, 41.15);
  int ia = tree.add(a);
  SearchNode b = planned(0, "tile", Variant{k.id, "__global__ void saxpy() { /*b*/ }", {}}, NodeState::Failed,
                         NodeStatus::CompileError);
  b.diagnostics = "error: identifier \"tile\" is undefined";
  int ib = tree.add(b);
  SearchNode c = planned(ia, "unroll", Variant{k.id, "__global__ void saxpy() { /*c*/ }", {}}, NodeState::Correct,
                         NodeStatus::Accepted, 30.0);
  tree.add(c);

  Prompt plan = plan_prompt(plan_window(tree, 0, brief, 3));
  EXPECT_NE(plan.user.find("123 us"), std::string::npos);  // 3 digits, not 123.456
  EXPECT_EQ(plan.user.find("123.456"), std::string::npos);
  EXPECT_NE(plan.user.find("NVIDIA H200 (sm_90, 132 SMs, 4800 GB/s"), std::string::npos);
  EXPECT_NE(plan.user.find("saxpy<<<(n + 255) / 256, 256>>>"), std::string::npos);
  EXPECT_NE(plan.user.find("/*b*/"), std::string::npos);  // children
  EXPECT_NE(plan.user.find("identifier \"tile\" is undefined"), std::string::npos);
  EXPECT_NE(plan.user.find("3.00x the original's speed"), std::string::npos)
      << plan.user;  // leaderboard: 123.456/41.15

  DebugInput d = debug_window(tree, ib, brief);
  Prompt debug = debug_prompt(d);
  EXPECT_NE(debug.user.find("/*a*/"), std::string::npos);  // sibling
  EXPECT_EQ(debug.user.find("/*c*/"), std::string::npos);  // not a sibling of b
  EXPECT_NE(debug.system.find("__restrict__"), std::string::npos);

  Prompt code =
      code_prompt(code_window(tree, ib, brief, Plan{"fix tiling", "/*STARK_SPAN 1: x*/ y /*STARK_END 1*/", {}}));
  EXPECT_NE(code.user.find("/*c*/"), std::string::npos);  // cousin: child of sibling a
  EXPECT_NE(code.user.find("fix tiling"), std::string::npos);
}

TEST(PromptBuilder, AKernelWhoseLaunchIsFixedIsToldSoInEveryRole) {
  Kernel k;
  k.id = "src/a.cu:scale";
  k.name = k.qualified_name = "scale";
  k.fixed_launch = "it is used through a pointer at src/a.cu:12, so some launches are out of sight";
  KernelBrief brief;
  brief.kernel = &k;
  SearchNode root;
  root.state = NodeState::Correct;
  root.variant = Variant{"", "__global__ void scale() {}", {}};
  SearchTree tree(root);
  for (const std::string& user : {plan_prompt(plan_window(tree, 0, brief, 3)).user,
                                  code_prompt(code_window(tree, 0, brief, Plan{"x", "y", {}})).user})
    EXPECT_NE(user.find("The launch shape cannot change: it is used through a pointer at src/a.cu:12"),
              std::string::npos)
        << user;
  k.fixed_launch.clear();
  EXPECT_EQ(plan_prompt(plan_window(tree, 0, brief, 3)).user.find("cannot change"), std::string::npos);
}

// Every role sees the profile facts of the nodes in its window: the plan
// role its node, the root and the leaderboard; the code role the node and
// its cousins; the debug role the failed node and its siblings.
TEST(PromptBuilder, EveryRoleSeesTheProfileFactsOfItsNodes) {
  Kernel k;
  k.id = "src/a.cu:saxpy";
  k.name = k.qualified_name = "saxpy";
  KernelBrief brief;
  brief.kernel = &k;
  SearchNode root;
  root.state = NodeState::Correct;
  root.time_us = 100;
  root.variant = Variant{"", "__global__ void saxpy() { /*root*/ }", {}};
  root.profile.resources = {{"_Z5saxpyv", 40, 688, 0}};
  root.profile.occupancy = 0.375;
  root.profile.achieved_gbs = 840;
  root.profile.roof_share = 0.21;
  SearchTree tree(root);
  SearchNode fast = planned(0, "vectorize", Variant{k.id, "__global__ void saxpy() { /*fast*/ }", {}},
                            NodeState::Correct, NodeStatus::Accepted, 50.0);
  fast.profile.resources = {{"_Z5saxpyv", 24, 0, 4096}};
  int ifast = tree.add(fast);
  SearchNode broken = planned(0, "tile", Variant{k.id, "__global__ void saxpy() { /*broken*/ }", {}}, NodeState::Failed,
                              NodeStatus::Rejected);
  broken.profile.resources = {{"_Z5saxpyv", 96, 0, 0}};
  int ibroken = tree.add(broken);

  const std::string root_facts =
      "profile: 40 registers, 688 B stack (spills or local arrays); occupancy 38%; 840 GB/s = 21% of the memory roof";
  std::string plan = plan_prompt(plan_window(tree, 0, brief, 3)).user;
  EXPECT_NE(plan.find(root_facts), std::string::npos) << plan;
  EXPECT_NE(plan.find("profile: 24 registers, no stack (no spills), 4.0 KiB static shared"), std::string::npos);
  std::string code = code_prompt(code_window(tree, ifast, brief, Plan{"x", "y", {}})).user;
  EXPECT_NE(code.find("profile: 24 registers"), std::string::npos);
  EXPECT_NE(code.find(root_facts), std::string::npos);
  std::string debug = debug_prompt(debug_window(tree, ibroken, brief)).user;
  EXPECT_NE(debug.find("profile: 96 registers"), std::string::npos);
  EXPECT_NE(debug.find("profile: 24 registers"), std::string::npos);  // its sibling
  EXPECT_NE(plan_prompt(plan_window(tree, 0, brief, 3)).system.find("memory roof"), std::string::npos);
}

}  // namespace
}  // namespace stark
