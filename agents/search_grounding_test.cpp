// The search's side of the grounded-instruction contract (grounding.h):
// what it does with a plan that rewrites code outside its markers, a plan it
// cannot ground, a code reply that edits outside its spans; what the debug
// role is shown; that a saved search is resumed only by the same kind of run.
#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>

#include "agents/grounded.h"
#include "agents/prompt_builder.h"
#include "agents/search.h"
#include "agents/testing/simulated.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

const char* kSource =
    "__global__ void saxpy(int n, float a, const float* x, float* y) {\n"
    "  int i = threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i];\n"
    "}";

/// A team whose plans come from a script (one per call, the last repeated)
/// and whose code role applies a function to the grounded plan. Records what
/// each role was shown.
class ScriptedPlans : public Team {
 public:
  std::deque<std::string> plans;
  std::function<std::string(const std::string& grounded)> code_of = [](const std::string& g) {
    // Fill every span with a grid-stride loop: drop the markers and the span's code.
    auto spans = parse_spans(g);
    std::string out = g;
    for (auto it = spans->rbegin(); it != spans->rend(); ++it)
      out.replace(it->marker_begin, it->marker_end - it->marker_begin,
                  "for (; i < n; i += blockDim.x) y[i] = a * x[i];");
    return out;
  };
  std::string identity_text = R"({"backend":"scripted-plans"})";

  std::vector<std::string> refusals, grounded_seen;
  std::vector<std::string> debug_prompts;

  BackendInfo info() const override { return {"scripted-plans", "none"}; }
  std::string identity() const override { return identity_text; }
  RoleReply<Plan> plan(const PlanInput& in) override {
    std::lock_guard lock(mutex_);
    refusals.push_back(in.refused);
    Plan p;
    p.strategy = "grid-stride loop";
    p.grounded = plans.size() > 1 ? plans.front() : plans.back();
    if (plans.size() > 1) plans.pop_front();
    return {p, {}};
  }
  RoleReply<Variant> code(const CodeInput& in) override {
    std::lock_guard lock(mutex_);
    grounded_seen.push_back(in.plan.grounded);
    return {Variant{in.brief->kernel->id, code_of(in.plan.grounded), {}}, {}};
  }
  RoleReply<Variant> debug(const DebugInput& in) override {
    std::lock_guard lock(mutex_);
    debug_prompts.push_back(debug_prompt(in).user);
    return {Error{"no fix"}, {}};
  }

 private:
  std::mutex mutex_;
};

/// Like the simulated evaluator, and a candidate containing "WRONG" comes
/// back with the error sizes of two captures.
class ErrorSizes : public testing::SimulatedEvaluator {
 public:
  Evaluation evaluate(const Kernel& kernel, const Variant& variant) override {
    Evaluation e = SimulatedEvaluator::evaluate(kernel, variant);
    if (variant.source.find("WRONG") != std::string::npos)
      e.captures = {{"c-big", std::nullopt, std::nullopt, 0.5, 0.25, std::nullopt},
                    {"c-small", std::nullopt, std::nullopt, 0.001, 0.0002, std::nullopt}};
    return e;
  }
};

struct Searching {
  Kernel kernel;
  KernelBrief brief;
  ScriptedPlans team;
  ErrorSizes evaluator;
  testing::SimulatedValidator validator;
  Searching() {
    kernel.id = "src/a.cu:saxpy";
    kernel.name = kernel.qualified_name = "saxpy";
    brief.kernel = &kernel;
    brief.source = kSource;
  }
  SearchOutcome search(int budget, std::filesystem::path state = {}) {
    SearchOptions o;
    o.budget = budget;
    o.parallel = 1;
    o.state_file = std::move(state);
    return run_search(brief, team, evaluator, validator, o);
  }
};

const std::string kFaithful =
    "__global__ void saxpy(int n, float a, const float* x, float* y) {\n"
    "  int i = threadIdx.x;\n"
    "  /*STARK_SPAN 1: grid-stride loop*/if (i < n) y[i] = a * x[i];/*STARK_END 1*/\n"
    "}";

TEST(SearchGrounding, APlanThatRewritesCodeOutsideItsMarkersIsReanchored) {
  // The attack: the plan quietly changes the index outside its span; the
  // code role would copy the change into the candidate.
  Searching r;
  r.team.plans = {
      "__global__ void saxpy(int n, float a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  /*STARK_SPAN 1: grid-stride loop*/if (i < n) y[i] = a * x[i];/*STARK_END 1*/\n"
      "}"};
  auto out = r.search(1);
  ASSERT_EQ(out.tree.size(), 2u);
  const SearchNode& n = out.tree.node(1);
  EXPECT_EQ(n.grounding, Grounding::Reanchored) << n.diagnostics;
  ASSERT_EQ(r.team.grounded_seen.size(), 1u);
  EXPECT_NE(r.team.grounded_seen[0].find("int i = threadIdx.x;"), std::string::npos);
  EXPECT_EQ(r.team.grounded_seen[0].find("blockIdx"), std::string::npos);
  EXPECT_EQ(n.candidate().source.find("blockIdx"), std::string::npos);
  EXPECT_EQ(out.tree.to_result_nodes()[1].grounding, Grounding::Reanchored);
}

TEST(SearchGrounding, APlanThatCannotBeGroundedIsSentBackOnceWithTheReason) {
  Searching r;
  r.team.plans = {
      "__global__ void saxpy(int n, float a, const float* x, float* y) {\n"
      "  int i = threadIdx.x;\n"
      "  /*STARK_SPAN 1: vectorise*/if (i < n) y[i] = a * x[i] + 0.0f;/*STARK_END 1*/\n"
      "}",
      kFaithful};
  auto out = r.search(1);
  const SearchNode& n = out.tree.node(1);
  EXPECT_EQ(n.grounding, Grounding::Spans);
  EXPECT_TRUE(n.healthy()) << n.status << ": " << n.diagnostics;
  ASSERT_EQ(r.team.refusals.size(), 2u);
  EXPECT_EQ(r.team.refusals[0], "");
  EXPECT_NE(r.team.refusals[1].find("is not in the kernel"), std::string::npos) << r.team.refusals[1];
  EXPECT_NE(plan_prompt([&] {
              PlanInput in;
              in.brief = &r.brief;
              in.node = in.root = &out.tree.root();
              in.refused = r.team.refusals[1];
              return in;
            }())
                .user.find("Your previous plan for this node was refused"),
            std::string::npos);
}

TEST(SearchGrounding, APlanRefusedTwiceIsAFailedNodeThatSaysWhy) {
  Searching r;
  r.team.plans = {"__global__ void saxpy() { /*STARK_SPAN 1: x*/ return; /*STARK_END 1*/ }"};
  auto out = r.search(1);
  const SearchNode& n = out.tree.node(1);
  EXPECT_EQ(n.state, NodeState::Failed);
  EXPECT_EQ(n.status, NodeStatus::PlanUngrounded);
  EXPECT_NE(n.diagnostics.find("sent back once, and still refused"), std::string::npos) << n.diagnostics;
  EXPECT_TRUE(r.team.grounded_seen.empty());  // the code role never saw it
}

TEST(SearchGrounding, APlanInWordsIsGroundedOnTheWholeBodyAndSaysSo) {
  Searching r;
  r.team.plans = {""};
  auto out = r.search(1);
  EXPECT_EQ(out.tree.node(1).grounding, Grounding::WholeBody);
}

TEST(SearchGrounding, CodeThatEditsOutsideItsSpansIsFlaggedAndStillEvaluated) {
  Searching r;
  r.team.plans = {kFaithful};
  r.team.code_of = [](const std::string&) {
    // The attack: the code role also changes the signature's types.
    return std::string(
        "__global__ void saxpy(int n, double a, const float* x, float* y) {\n"
        "  int i = threadIdx.x;\n"
        "  for (; i < n; i += blockDim.x) y[i] = a * x[i];\n"
        "}");
  };
  auto out = r.search(1);
  const SearchNode& n = out.tree.node(1);
  EXPECT_EQ(n.grounding, Grounding::OutsideSpans);
  EXPECT_NE(n.grounding_note.find("the code changed before span 1"), std::string::npos) << n.grounding_note;
  EXPECT_TRUE(n.healthy());
}

TEST(SearchGrounding, TheDebugRoleSeesThePlanTheChangeAndTheErrorSizes) {
  Searching r;
  r.team.plans = {kFaithful};
  r.team.code_of = [](const std::string&) {
    return std::string(
        "__global__ void saxpy(int n, float a, const float* x, float* y) {\n"
        "  int i = threadIdx.x;\n"
        "  if (i < n) y[i] = a * x[i] * 2.0f; // WRONG\n"
        "}");
  };
  auto out = r.search(7);  // the root takes at most 5 children: then a failed one is debugged
  ASSERT_FALSE(r.team.debug_prompts.empty());
  const std::string& p = r.team.debug_prompts[0];
  EXPECT_NE(p.find("/*STARK_SPAN 1: grid-stride loop*/"), std::string::npos) << p;  // the grounded plan
  EXPECT_NE(p.find("-  if (i < n) y[i] = a * x[i];\n+  if (i < n) y[i] = a * x[i] * 2.0f; // WRONG"),
            std::string::npos)
      << p;  // the change from its parent
  EXPECT_NE(p.find("capture c-big: max abs error 0.5, max rel error 0.25"), std::string::npos) << p;
  EXPECT_NE(p.find("y[17]: 3.5 vs 1.25"), std::string::npos) << p;  // the checks' words
}

TEST(SearchGrounding, ASavedSearchIsResumedOnlyByTheSameKindOfRun) {
  stark::testing::TempDir tmp;
  auto state = tmp / "state.json";
  {
    Searching first;
    first.team.plans = {kFaithful};
    EXPECT_FALSE(first.search(2, state).resumed);
  }
  {
    Searching other;  // e.g. another backend or model: its identity differs
    other.team.plans = {kFaithful};
    other.team.identity_text = R"({"backend":"scripted-plans","models":{"plan":"other"}})";
    auto out = other.search(2, state);
    EXPECT_FALSE(out.resumed);
    EXPECT_EQ(other.team.grounded_seen.size(), 2u);  // searched afresh
  }
  {
    Searching same;  // the state now holds the other run's search: resumed by that kind only
    same.team.plans = {kFaithful};
    same.team.identity_text = R"({"backend":"scripted-plans","models":{"plan":"other"}})";
    EXPECT_TRUE(same.search(2, state).resumed);
  }
}

}  // namespace
}  // namespace stark
