#include "harness/worker/check_list.h"

#include <gtest/gtest.h>

namespace stark::harness {
namespace {

const Check* find(const std::vector<Check>& checks, CheckName name) {
  for (const auto& c : checks)
    if (c.name == name) return &c;
  return nullptr;
}

TEST(CheckList, ListsEveryCheckInReportOrderWhateverTheOrderReached) {
  CheckList checks;
  checks.pass(CheckName::Timing, "1.5x");
  checks.pass(CheckName::Launch);
  auto list = checks.list();
  ASSERT_GE(list.size(), 10u);
  EXPECT_EQ(list.front().name, CheckName::BaselineReplay);
  EXPECT_EQ(list.back().name, CheckName::Recheck);
  EXPECT_EQ(find(list, CheckName::Timing)->detail, "1.5x");
  EXPECT_EQ(find(list, CheckName::Launch)->ok, true);
  EXPECT_EQ(find(list, CheckName::Fuzz)->ok, std::nullopt);
  EXPECT_EQ(find(list, CheckName::Fuzz)->detail, "not run: an earlier check failed");
  EXPECT_FALSE(checks.failed());
}

TEST(CheckList, AFailureStaysAndKeepsThreeReasons) {
  CheckList checks;
  for (int i = 0; i < 5; ++i) checks.fail(CheckName::Correctness, "capture c" + std::to_string(i));
  checks.pass(CheckName::Correctness, "fine");  // a later pass cannot undo it
  checks.skip(CheckName::Fuzz, "not run: integer inputs only");
  auto list = checks.list();
  EXPECT_TRUE(checks.failed());
  EXPECT_EQ(find(list, CheckName::Correctness)->ok, false);
  EXPECT_EQ(find(list, CheckName::Correctness)->detail, "capture c0; capture c1; capture c2");
  EXPECT_EQ(find(list, CheckName::Fuzz)->detail, "not run: integer inputs only");
}

TEST(CheckList, RecordTurnsAJudgementIntoFailures) {
  CheckList checks;
  Judgement j;
  j.wrong = {"y[3]: 1 vs 2"};
  j.guards = {"y: 4 bytes after the end"};
  record(checks, j, CheckName::Fuzz, "c-1");
  auto list = checks.list();
  EXPECT_EQ(find(list, CheckName::Fuzz)->detail, "capture c-1: y[3]: 1 vs 2");
  EXPECT_EQ(find(list, CheckName::Guards)->ok, false);
  EXPECT_EQ(find(list, CheckName::InputsUnchanged)->ok, std::nullopt);
}

}  // namespace
}  // namespace stark::harness
