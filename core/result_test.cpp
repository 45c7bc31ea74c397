#include "core/result.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/evaluation.h"

namespace stark {
namespace {

TEST(Result, HandWrittenMinimalResultLoads) {
  // Only the fields docs/CONTRACTS.md lists for a result: a hand-written result must work.
  auto j = nlohmann::json::parse(R"({
    "schema": "stark.result/1", "source_root": "/p", "manifest": "/p/build/m.json",
    "kernels": [{"id": "a.cu:k", "status": "improved", "tree": [],
                 "best": {"source": "__global__ void k() {}", "launch": {"block": ["32", "4", "1"]}}}]})");
  Result r = j.get<Result>();
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].status, KernelStatus::Improved);
  ASSERT_TRUE(r.kernels[0].best);
  EXPECT_EQ(r.kernels[0].best->kernel, "a.cu:k");
  EXPECT_EQ(r.kernels[0].best->launch.block.size(), 3u);
}

TEST(Result, RoundTripDropsKernelFromBest) {
  Result r;
  r.source_root = "/p";
  r.manifest = "m.json";
  r.gpu = GpuInfo{"NVIDIA H200", "90", "580", "13.0"};
  KernelResult k;
  k.id = "a.cu:k";
  k.status = KernelStatus::NoGain;
  k.best = Variant{"a.cu:k", "__global__ void k() {}", {{"ceil_div(n, 512)"}, {"512"}, std::nullopt}};
  k.tree = {
      {0, std::nullopt, NodeRole::Root, NodeStatus::Accepted, 10.0, "", std::nullopt, "", Grounding::None, {}, {}},
      {1,
       0,
       NodeRole::PlanCode,
       NodeStatus::Rejected,
       std::nullopt,
       "wrong output",
       k.best,
       "vectorize",
       Grounding::None,
       {},
       {}}};
  k.captures = {{"c-big", 9.0, 8.5, std::nullopt}, {"c-small", 1.0, 0.5, std::nullopt}};
  r.kernels = {k};
  nlohmann::json j = r;
  EXPECT_FALSE(j["kernels"][0]["best"].contains("kernel"));
  EXPECT_EQ(j["kernels"][0]["captures"][1]["best_us"], 0.5);
  EXPECT_EQ(j["kernels"][0]["best"]["launch"]["grid"], "ceil_div(n, 512)");
  EXPECT_EQ(j.get<Result>(), r);
}

// The roles are a closed set: a result that names another (a hand-edited or
// hostile result folder) does not load, and each known one reads back.
TEST(Result, NodeRolesAreAClosedSet) {
  for (const char* role : {"root", "plan+code", "debug"}) {
    auto j =
        nlohmann::json::parse(fmt::format(R"({{"id": 0, "parent": null, "role": "{}", "status": "accepted"}})", role));
    EXPECT_EQ(to_string(j.get<TreeNode>().role), std::string(role));
  }
  auto j = nlohmann::json::parse(R"({"id": 0, "parent": null, "role": "admin", "status": "accepted"})");
  EXPECT_THROW(j.get<TreeNode>(), std::exception);
  EXPECT_EQ(node_role_from_string("admin"), std::nullopt);
}

TEST(Result, RejectsUnknownStatus) {
  auto j = nlohmann::json::parse(R"({"schema": "stark.result/1", "source_root": "/p", "manifest": "m",
    "kernels": [{"id": "a", "status": "great", "tree": []}]})");
  EXPECT_THROW(j.get<Result>(), std::exception);
}

// A node's status and a check's name are closed sets too: a result folder
// that calls a node "accepted_by_review" or lists a check "reviewed" (to
// dress a candidate up as verified) does not load, and says what it read.
TEST(Result, NodeStatusesAndCheckNamesAreClosedSets) {
  for (NodeStatus s :
       {NodeStatus::NotEvaluated, NodeStatus::Accepted, NodeStatus::Duplicate, NodeStatus::DebugFailed}) {
    nlohmann::json j = s;
    EXPECT_EQ(j.get<NodeStatus>(), s);
    EXPECT_EQ(node_status_from_string(to_string(s)), s);
  }
  for (CheckName c : {CheckName::BaselineReplay, CheckName::Correctness, CheckName::Racecheck, CheckName::Cache}) {
    nlohmann::json j = c;
    EXPECT_EQ(j.get<CheckName>(), c);
    EXPECT_EQ(check_name_from_string(to_string(c)), c);
  }
  auto node = nlohmann::json::parse(R"({"id": 1, "parent": 0, "role": "plan+code", "status": "accepted_by_review"})");
  try {
    (void)node.get<TreeNode>();
    ADD_FAILURE() << "an unknown node status was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown node status 'accepted_by_review'");
  }
  auto checks = nlohmann::json::parse(R"([{"name": "correctness", "ok": true}, {"name": "reviewed", "ok": true}])");
  try {
    (void)checks.get<std::vector<Check>>();
    ADD_FAILURE() << "an unknown check was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown check 'reviewed'");
  }
  EXPECT_THROW(nlohmann::json(7).get<CheckName>(), std::exception);
  EXPECT_EQ(fmt::format("{} {}", CheckName::Guards, NodeStatus::CompileError), "guard_canaries compile_error");
}

TEST(Evaluation, RoundTrip) {
  Evaluation e;
  e.kernel = "a.cu:k";
  e.verdict = Verdict::Rejected;
  e.reason = "output differs";
  e.checks = {{CheckName::Memcheck, std::nullopt, "compute-sanitizer not found"},
              {CheckName::Correctness, false, "x[3]"}};
  e.captures = {{"0", Timing{10, 9, 11, 50}, std::nullopt, 0.5, 0.1, std::nullopt, std::nullopt, std::nullopt}};
  nlohmann::json j = e;
  EXPECT_TRUE(j["checks"][0]["ok"].is_null());
  EXPECT_FALSE(j.contains("seconds"));  // only when phases were timed
  EXPECT_EQ(j.get<Evaluation>(), e);
  e.seconds = {{"compile", 2.5}, {"judge", 0.75}};
  j = e;
  EXPECT_EQ(j["seconds"]["judge"], 0.75);
  EXPECT_EQ(j.get<Evaluation>(), e);
}

}  // namespace
}  // namespace stark
