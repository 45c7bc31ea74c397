#include "harness/worker/check_list.h"

#include <gtest/gtest.h>

namespace stark::harness {
namespace {

const Check* find(const std::vector<Check>& checks, const std::string& name) {
  for (const auto& c : checks)
    if (c.name == name) return &c;
  return nullptr;
}

TEST(CheckList, ListsEveryCheckInReportOrderWhateverTheOrderReached) {
  CheckList checks;
  checks.pass(check::kTiming, "1.5x");
  checks.pass(check::kLaunch);
  auto list = checks.list();
  ASSERT_GE(list.size(), 10u);
  EXPECT_EQ(list.front().name, check::kBaselineReplay);
  EXPECT_EQ(list.back().name, check::kRecheck);
  EXPECT_EQ(find(list, check::kTiming)->detail, "1.5x");
  EXPECT_EQ(find(list, check::kLaunch)->ok, true);
  EXPECT_EQ(find(list, check::kFuzz)->ok, std::nullopt);
  EXPECT_EQ(find(list, check::kFuzz)->detail, "not run: an earlier check failed");
  EXPECT_FALSE(checks.failed());
}

TEST(CheckList, AFailureStaysAndKeepsThreeReasons) {
  CheckList checks;
  for (int i = 0; i < 5; ++i) checks.fail(check::kCorrectness, "capture c" + std::to_string(i));
  checks.pass(check::kCorrectness, "fine");  // a later pass cannot undo it
  checks.skip(check::kFuzz, "not run: integer inputs only");
  auto list = checks.list();
  EXPECT_TRUE(checks.failed());
  EXPECT_EQ(find(list, check::kCorrectness)->ok, false);
  EXPECT_EQ(find(list, check::kCorrectness)->detail, "capture c0; capture c1; capture c2");
  EXPECT_EQ(find(list, check::kFuzz)->detail, "not run: integer inputs only");
}

TEST(CheckList, RecordTurnsAJudgementIntoFailures) {
  CheckList checks;
  Judgement j;
  j.wrong = {"y[3]: 1 vs 2"};
  j.guards = {"y: 4 bytes after the end"};
  record(checks, j, check::kFuzz, "c-1");
  auto list = checks.list();
  EXPECT_EQ(find(list, check::kFuzz)->detail, "capture c-1: y[3]: 1 vs 2");
  EXPECT_EQ(find(list, check::kGuards)->ok, false);
  EXPECT_EQ(find(list, check::kInputsUnchanged)->ok, std::nullopt);
}

}  // namespace
}  // namespace stark::harness
