#include "agents/search.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>

#include "agents/testing/simulated.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

using testing::ScriptedTeam;
using testing::SimulatedEvaluator;
using testing::SimulatedValidator;

nlohmann::json read_state(const std::filesystem::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

Kernel make_kernel() {
  Kernel k;
  k.id = "src/a.cu:saxpy";
  k.name = "saxpy";
  k.qualified_name = "saxpy";
  return k;
}

struct Fixture {
  Kernel kernel = make_kernel();
  KernelBrief brief;
  ScriptedTeam team;
  SimulatedEvaluator evaluator;
  SimulatedValidator validator;
  explicit Fixture(bool gpu = true) : evaluator(gpu) {
    brief.kernel = &kernel;
    brief.source = "__global__ void saxpy(int n, float a, const float* x, float* y) {\n  y[0] = a * x[0];\n}";
  }
  SearchOutcome run(SearchOptions o) { return run_search(brief, team, evaluator, validator, o); }
};

SearchOptions options(int budget, uint64_t seed = 1, int parallel = 4) {
  SearchOptions o;
  o.budget = budget;
  o.seed = seed;
  o.parallel = parallel;
  return o;
}

TEST(Search, SpendsExactlyTheBudget) {
  Fixture f;
  auto out = f.run(options(30));
  EXPECT_EQ(out.attempts, 30);
  // Two fixes of one failed node in flight at once can write the same code:
  // the second is a duplicate, in the tree but neither evaluated nor counted.
  size_t duplicates = 0;
  for (const auto& n : out.tree.nodes()) duplicates += n.status == NodeStatus::Duplicate;
  EXPECT_EQ(out.tree.size(), 31u + duplicates);
  EXPECT_EQ(out.stopped, "budget");
  EXPECT_EQ(f.evaluator.calls(), 31 - /*failed before evaluation*/ 0);
  EXPECT_LE(out.tree.root().children.size(), 5u);
  EXPECT_TRUE(out.tree.best());
  EXPECT_GT(out.usage.tokens.prompt, 0);
}

TEST(Search, AcceptedNodesKeepTheirPerCaptureTimes) {
  Fixture f;
  auto out = f.run(options(6));
  ASSERT_TRUE(out.tree.best());
  const SearchNode& best = out.tree.node(*out.tree.best());
  ASSERT_EQ(best.captures.size(), 2u);
  EXPECT_EQ(best.captures[0].id, "c-big");
  EXPECT_DOUBLE_EQ(best.captures[0].baseline_us, 90.0);
  EXPECT_DOUBLE_EQ(best.captures[0].best_us + best.captures[1].best_us, *best.time_us);
  auto again = SearchTree::from_json(out.tree.to_json());
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->node(best.id).captures, best.captures);
}

TEST(Search, OneInFlightSameSeedSameTreeWhateverTheTiming) {
  // The evaluator sleeps a pseudo-random while; one at a time, that cannot matter.
  Fixture a, b, c;
  auto ta = a.run(options(20, 7, 1)).tree.to_json();
  auto tb = b.run(options(20, 7, 1)).tree.to_json();
  auto tc = c.run(options(20, 8, 1)).tree.to_json();
  EXPECT_EQ(ta, tb);
  EXPECT_NE(ta, tc);
}

TEST(Search, SeveralInFlightAreReplayedFromTheRecordedOrder) {
  // With four in flight, a selection follows each finished expansion, so
  // the tree depends on which finished first; the state records the order,
  // and following it rebuilds the same tree whatever the timing.
  stark::testing::TempDir tmp;
  const auto& dir = tmp.path();
  Fixture first;
  SearchOptions o = options(20, 7, 4);
  o.state_file = dir / "state.json";
  auto original = first.run(o);
  EXPECT_EQ(original.attempts, 20);
  auto order = recorded_order(o.state_file);
  ASSERT_TRUE(order) << order.error().message;
  ASSERT_EQ(order->size(), 2 * (original.tree.size() - 1));  // a selection and a commit per node (duplicates too)
  for (int i = 0; i < 3; ++i) {
    Fixture again;
    SearchOptions r = options(20, 7, 4);
    r.replay = *order;
    EXPECT_EQ(again.run(r).tree.to_json(), original.tree.to_json()) << "replay " << i;
  }
}

/// Times by call: the root's, then each candidate's in the order evaluated.
class TimesByCall : public Evaluator {
 public:
  explicit TimesByCall(std::vector<double> times) : times_(std::move(times)) {}
  Evaluation evaluate(const Kernel& kernel, const Variant&) override {
    Evaluation e;
    e.kernel = kernel.id;
    e.compile_ok = true;
    e.verdict = Verdict::Accepted;
    e.baseline_us = times_[0];
    e.variant_us = times_[std::min(calls_++, times_.size() - 1)];
    e.speedup = *e.baseline_us / *e.variant_us;
    return e;
  }
  std::optional<GpuInfo> gpu() const override { return GpuInfo{"Simulated GPU", "90", "0", "13.0"}; }

 private:
  std::vector<double> times_;
  size_t calls_ = 0;
};

TEST(Search, OneInFlightIsThePapersLoopStepByStep) {
  // Greedy (epsilon 0) with at most two children at the root, one at a time:
  // each step expands the fastest selectable node. By hand, with the times
  // below: root(100) -> 1(90); 1 is fastest -> 2(95); 1 -> 3(80); 3 -> 4(85);
  // 3 -> 5(70); 5 -> 6(75). The root's third child is never allowed.
  Kernel kernel = make_kernel();
  KernelBrief brief;
  brief.kernel = &kernel;
  brief.source = "__global__ void saxpy(int n, float a, const float* x, float* y) {\n  y[0] = a * x[0];\n}";
  ScriptedTeam team;
  TimesByCall evaluator({100, 90, 95, 80, 85, 70, 75});
  SimulatedValidator validator;
  SearchOptions o = options(6, 1, 1);
  o.rules.epsilon = 0;
  o.rules.n_root = 2;
  auto out = run_search(brief, team, evaluator, validator, o);
  std::vector<int> parents;
  for (size_t i = 1; i < out.tree.size(); ++i) parents.push_back(*out.tree.node(static_cast<int>(i)).parent);
  EXPECT_EQ(parents, (std::vector<int>{0, 1, 1, 3, 3, 5}));
  EXPECT_EQ(*out.tree.best(), 5);
}

TEST(Search, DebugRoleGetsTheCompilerMessage) {
  Fixture f;
  SearchOptions o = options(30);
  o.rules.epsilon = 0.9;  // explore leaves, where the broken candidates are
  auto out = f.run(o);
  auto seen = f.team.debug_diagnostics();
  ASSERT_FALSE(seen.empty());
  for (const auto& d : seen) EXPECT_NE(d.find("identifier \"BROKEN\" is undefined"), std::string::npos) << d;
  bool fixed = false;
  for (const auto& n : out.tree.nodes()) fixed |= n.role == NodeRole::Debug && n.state == NodeState::Correct;
  EXPECT_TRUE(fixed);
}

TEST(Search, StopsAtTheCostLimit) {
  Fixture f;
  f.team.cost_per_call = 0.1;
  SearchOptions o = options(30);
  o.max_cost_usd = 0.5;
  auto out = f.run(o);
  EXPECT_EQ(out.stopped, "cost limit");
  EXPECT_LT(out.attempts, 30);
  EXPECT_GE(out.usage.cost_usd, 0.5);
}

TEST(Search, WithoutAGpuNodesAreUntimedAndTheRolesStillRun) {
  Fixture f(/*gpu=*/false);
  auto out = f.run(options(6));
  EXPECT_EQ(out.attempts, 6);
  EXPECT_EQ(out.tree.root().state, NodeState::Untimed);
  EXPECT_FALSE(out.tree.best());
  int untimed = 0, compile_errors = 0;
  for (const auto& n : out.tree.nodes()) {
    untimed += n.state == NodeState::Untimed;
    compile_errors += n.status == NodeStatus::CompileError;
  }
  EXPECT_EQ(untimed + compile_errors, 7);
}

TEST(Search, ResumesAfterAnInterruptionToTheSameTree) {
  stark::testing::TempDir tmp;
  const auto& dir = tmp.path();
  Fixture whole;
  auto expected = whole.run(options(17, 3, 1)).tree.to_json();

  Fixture first;
  SearchOptions o = options(17, 3, 1);
  o.state_file = dir / "state.json";
  int seen = 0;
  o.on_node = [&](const SearchTree&, const SearchNode&) {
    if (++seen == 9) throw std::runtime_error("interrupted");
  };
  EXPECT_THROW(first.run(o), std::runtime_error);

  Fixture second;
  o.on_node = nullptr;
  auto resumed = second.run(o);
  EXPECT_TRUE(resumed.resumed);
  EXPECT_EQ(resumed.attempts, 17);
  EXPECT_EQ(resumed.tree.to_json(), expected);
  EXPECT_LT(second.evaluator.calls(), 17);  // the finished nodes were not redone
}

TEST(Search, ResumesExpansionsThatWereInFlight) {
  // Interrupted with several expansions in flight: they are expanded again
  // (on the tree they were selected in) and the search ends its budget.
  stark::testing::TempDir tmp;
  const auto& dir = tmp.path();
  Fixture first;
  SearchOptions o = options(17, 3, 4);
  o.state_file = dir / "state.json";
  int seen = 0;
  o.on_node = [&](const SearchTree&, const SearchNode&) {
    if (++seen == 9) throw std::runtime_error("interrupted");
  };
  EXPECT_THROW(first.run(o), std::runtime_error);
  auto saved = read_state(o.state_file);
  EXPECT_FALSE(saved["pending"].empty());

  Fixture second;
  o.on_node = nullptr;
  auto resumed = second.run(o);
  EXPECT_TRUE(resumed.resumed);
  EXPECT_EQ(resumed.attempts, 17);
  auto order = recorded_order(o.state_file);
  ASSERT_TRUE(order);
  EXPECT_EQ(order->size(), 34u);
  // Every selection was committed exactly once.
  std::map<int, int> selects, commits;
  for (const auto& e : *order) ++(e.kind == OrderEvent::Select ? selects : commits)[e.seq];
  EXPECT_EQ(selects, commits);
  for (const auto& [seq, n] : commits) EXPECT_EQ(n, 1) << seq;
}

TEST(Search, NodesThatFailedBeforeAnyCodeSurviveResume) {
  stark::testing::TempDir tmp;
  const auto& dir = tmp.path();
  Fixture f;
  f.brief.source += "\n// PLANLESS";  // the scripted team refuses to plan for this kernel
  SearchOptions o = options(3, 1, 1);
  o.state_file = dir / "state.json";
  auto first = f.run(o);
  ASSERT_EQ(first.tree.size(), 4u);
  EXPECT_EQ(first.tree.node(1).status, NodeStatus::PlanFailed);
  EXPECT_FALSE(first.tree.to_result_nodes()[1].variant);
  Fixture again;
  again.brief.source = f.brief.source;
  auto resumed = again.run(o);
  EXPECT_TRUE(resumed.resumed);
  EXPECT_EQ(resumed.tree.to_json(), first.tree.to_json());
}

TEST(Search, AFailedBaselineStopsAtOnce) {
  Fixture f;
  f.brief.source = "__global__ void saxpy() { BROKEN }";
  auto out = f.run(options(10));
  EXPECT_EQ(out.stopped, "baseline failed");
  EXPECT_EQ(out.attempts, 0);
}

TEST(Search, InvalidVariantsAreFailedNodesWithTheReason) {
  Fixture f;
  f.brief.source += "\n// INVALID";
  // The root itself is not validated (it is the user's code); its children inherit the text.
  auto out = f.run(options(3, 1, 1));
  ASSERT_EQ(out.tree.size(), 4u);
  EXPECT_EQ(out.tree.node(1).status, NodeStatus::Invalid);
  EXPECT_EQ(out.tree.node(1).diagnostics, "host code in the variant");
}

/// A team with one idea: every plan and every fix is the same kernel with
/// its multiply written the other way round, however it is spaced.
class OneIdeaTeam : public Team {
 public:
  BackendInfo info() const override { return {"scripted", "one-idea"}; }
  RoleReply<Plan> plan(const PlanInput& in) override {
    return {Plan{"swap operands", in.node->candidate().source, {}}, {}};
  }
  RoleReply<Variant> code(const CodeInput& in) override { return {idea(in.node->candidate().source), {}}; }
  RoleReply<Variant> debug(const DebugInput& in) override { return {idea(in.node->candidate().source), {}}; }
  std::atomic<int> codes{0};

 private:
  Variant idea(const std::string& source) {
    int n = codes++;
    Variant v;
    v.source = source;
    auto at = v.source.find("a * x[0]");
    if (at != std::string::npos) v.source.replace(at, 8, "x[0] * a");
    v.source += std::string(static_cast<size_t>(n % 3), '\n') + "// attempt " + std::to_string(n);
    return v;
  }
};

// No attempt is spent on a candidate already evaluated: the second and
// later copies are duplicate nodes that name the first, cost nothing on the
// GPU, are never debugged, and the search still ends (duplicates are free
// only up to the budget's number of them).
TEST(Search, ACandidateAlreadyEvaluatedIsADuplicateNotAnAttempt) {
  Fixture f;
  OneIdeaTeam team;
  const int budget = 5;
  auto out = run_search(f.brief, team, f.evaluator, f.validator, options(budget, 1, 1));
  EXPECT_EQ(f.evaluator.calls(), 2);  // the original and the one idea
  ASSERT_GE(out.tree.size(), 3u);
  EXPECT_EQ(out.tree.node(1).status, NodeStatus::Accepted);
  int duplicates = 0;
  for (const auto& n : out.tree.nodes()) {
    if (n.status != NodeStatus::Duplicate) continue;
    ++duplicates;
    EXPECT_EQ(n.state, NodeState::Failed);
    EXPECT_EQ(n.role, NodeRole::PlanCode) << "a duplicate is not a failure to debug";
    EXPECT_NE(n.diagnostics.find("the same code and launch as node 1"), std::string::npos) << n.diagnostics;
  }
  EXPECT_EQ(duplicates, 2 * budget - 1);
  EXPECT_EQ(out.attempts, budget);
  EXPECT_EQ(out.stopped, "budget");
}

// The original, reformatted or commented, is not a candidate either.
TEST(Search, TheOriginalRespelledIsADuplicateOfTheRoot) {
  Fixture f;
  struct Respell : OneIdeaTeam {
    RoleReply<Variant> code(const CodeInput& in) override {
      return {Variant{"", "  " + in.root->candidate().source + "  // unchanged", {}}, {}};
    }
  } team;
  auto out = run_search(f.brief, team, f.evaluator, f.validator, options(2, 1, 1));
  EXPECT_EQ(f.evaluator.calls(), 1);
  ASSERT_GE(out.tree.size(), 2u);
  EXPECT_EQ(out.tree.node(1).status, NodeStatus::Duplicate);
  EXPECT_NE(out.tree.node(1).diagnostics.find("the original kernel (node 0)"), std::string::npos);
}

// Four expansions in flight that write the same candidate at the same
// time: one evaluation among them.
TEST(Search, ConcurrentCopiesReachTheGpuOnce) {
  Fixture f;
  OneIdeaTeam team;
  auto out = run_search(f.brief, team, f.evaluator, f.validator, options(4, 1, 4));
  EXPECT_EQ(f.evaluator.calls(), 2);
  int accepted = 0;
  for (const auto& n : out.tree.nodes()) accepted += n.id > 0 && n.status == NodeStatus::Accepted;
  EXPECT_EQ(accepted, 1);
}

/// A team with two ideas for every node, and nothing after them: the
/// built-in team's way once every transformation it knows was proposed.
class TwoIdeasTeam : public Team {
 public:
  BackendInfo info() const override { return {"scripted", "two-ideas"}; }
  RoleReply<Plan> plan(const PlanInput& in) override {
    std::vector<std::string> untried;
    for (const char* idea : {"idea A", "idea B"}) {
      bool tried =
          std::any_of(in.children.begin(), in.children.end(), [&](const SearchNode* c) { return c->strategy == idea; });
      if (!tried) untried.push_back(idea);
    }
    if (static_cast<size_t>(in.proposal) >= untried.size()) return {Error{"no idea left"}, {}, /*nothing_left=*/true};
    return {Plan{untried[static_cast<size_t>(in.proposal)], in.node->candidate().source, {}}, {}};
  }
  RoleReply<Variant> code(const CodeInput& in) override {
    int n = codes++;
    return {
        Variant{
            "", in.node->candidate().source + fmt::format("\nstatic __device__ const int candidate_{0} = {0};", n), {}},
        {}};
  }
  RoleReply<Variant> debug(const DebugInput& in) override { return {Variant{"", in.node->candidate().source, {}}, {}}; }
  std::atomic<int> codes{0};
};

// A plan role with nothing left for a node costs no attempt: the node is
// not offered to it again, and the budget goes to candidates that reach
// the GPU (one at a time, or several in flight).
TEST(Search, AnExhaustedPlanIsNoAttemptAndItsNodeIsNotPlannedAgain) {
  for (int parallel : {1, 4}) {
    Fixture f;
    TwoIdeasTeam team;
    const int budget = 7;
    auto out = run_search(f.brief, team, f.evaluator, f.validator, options(budget, 1, parallel));
    EXPECT_EQ(out.attempts, budget) << parallel;
    EXPECT_EQ(f.evaluator.calls(), budget + 1) << "every attempt reached the GPU; parallel " << parallel;
    int exhausted = 0;
    for (const auto& n : out.tree.nodes()) {
      if (n.status != NodeStatus::Exhausted) continue;
      ++exhausted;
      EXPECT_FALSE(was_evaluated(n));
      if (parallel == 1) {
        EXPECT_EQ(out.tree.node(*n.parent).children.back(), n.id) << "planned again after";
      }
    }
    EXPECT_GE(exhausted, 1) << parallel;
    EXPECT_EQ(out.stopped, "budget");
  }
}

// Every candidate is wrong and the debug role has no repair: each debug is
// an exhausted node (no attempt), and the failed node is not debugged again.
class NoRepairTeam : public TwoIdeasTeam {
 public:
  BackendInfo info() const override { return {"scripted", "no-repair"}; }
  RoleReply<Variant> code(const CodeInput& in) override {
    auto v = TwoIdeasTeam::code(in);
    v.value->source += "\n// WRONG";
    return v;
  }
  RoleReply<Variant> debug(const DebugInput&) override {
    ++debugs;
    return {Error{"no repair left"}, {}, /*nothing_left=*/true};
  }
  std::atomic<int> debugs{0};
};

TEST(Search, ADebugWithNothingLeftIsNoAttemptAndTheNodeIsNotDebuggedAgain) {
  for (int parallel : {1, 4}) {
    Fixture f;
    NoRepairTeam team;
    auto out = run_search(f.brief, team, f.evaluator, f.validator, options(10, 1, parallel));
    int rejected = 0, exhausted_debugs = 0;
    std::map<int, int> debugs_of;
    for (const auto& n : out.tree.nodes()) {
      rejected += n.status == NodeStatus::Rejected;
      if (n.role == NodeRole::Debug) {
        EXPECT_EQ(n.status, NodeStatus::Exhausted) << parallel;
        ++exhausted_debugs;
        ++debugs_of[*n.parent];
      }
    }
    EXPECT_EQ(out.attempts, rejected) << "only evaluated candidates are attempts; parallel " << parallel;
    EXPECT_GE(exhausted_debugs, 1) << parallel;
    if (parallel == 1) {
      for (const auto& [node, count] : debugs_of) {
        EXPECT_EQ(count, 1) << "node " << node << " debugged again";
      }
    }
  }
}

}  // namespace
}  // namespace stark
