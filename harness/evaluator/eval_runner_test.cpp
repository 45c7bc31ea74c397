#include "harness/evaluator/eval_runner.h"

#include <gtest/gtest.h>

namespace stark::harness {
namespace {

Evaluation accepted_with(std::optional<bool> memcheck, const std::string& detail) {
  Evaluation e;
  e.verdict = Verdict::Accepted;
  e.reason = "correct on 1 capture; 3.00x (30.0 us -> 10.0 us)";
  e.checks = {{CheckName::Correctness, true, ""},
              {CheckName::Memcheck, memcheck, detail},
              {CheckName::Racecheck, memcheck, detail}};
  return e;
}

// A by-hand judge never calls a candidate "accepted" when its sanitizers did not run.
TEST(VerdictLine, SaysWhenTheSanitizersDidNotRun) {
  EXPECT_EQ(verdict_line(accepted_with(true, "no errors")),
            "accepted: correct on 1 capture; 3.00x (30.0 us -> 10.0 us)");
  std::string line = verdict_line(accepted_with(std::nullopt,
                                                "not run: only candidates faster than the original are "
                                                "sanitized"));
  EXPECT_EQ(line.rfind("correct, not sanitized: memcheck not run", 0), 0u) << line;
  EXPECT_NE(line.find("3.00x"), std::string::npos);
}

TEST(VerdictLine, NamesAnOtherSizeThatWasNotJudged) {
  Evaluation e = accepted_with(true, "no errors");
  e.checks.push_back({CheckName::OtherSizes, std::nullopt, "no integer argument matches a buffer's extent"});
  EXPECT_NE(verdict_line(e).find("no other size judged (no integer argument matches"), std::string::npos);
  e.verdict = Verdict::Rejected;
  e.reason = "correctness: wrong";
  EXPECT_EQ(verdict_line(e), "rejected: correctness: wrong");
}

}  // namespace
}  // namespace stark::harness
