#include "harness/evaluator/sanitizer_memo.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace stark::harness {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

class SanitizerMemoTest : public ::testing::Test {
 protected:
  TempDir tmp;
  fs::path dir = tmp / "memo";  // not made yet: the memo makes it
  nlohmann::json request = {{"op", "run_once"}, {"id", 7}, {"variant_cubin", "/cache/ab/ab12.cubin"}, {"seed", 1}};
  nlohmann::json capture = {{"id", "c-1"}, {"shape", "n=1024"}};
};

TEST_F(SanitizerMemoTest, APassIsReusedForTheSameRunOnly) {
  SanitizerMemo memo(dir);
  std::string key = SanitizerMemo::key(CheckName::Memcheck, request, capture);
  EXPECT_FALSE(memo.find(CheckName::Memcheck, key));
  memo.remember(key, Check{CheckName::Memcheck, true, "ERROR SUMMARY: 0 errors"});
  auto again = memo.find(CheckName::Memcheck, key);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->name, CheckName::Memcheck);
  EXPECT_EQ(again->ok, std::optional<bool>(true));
  EXPECT_NE(again->detail.find("ERROR SUMMARY: 0 errors"), std::string::npos);
  EXPECT_NE(again->detail.find("reused"), std::string::npos);

  // The per-call id does not matter; the tool, the cubin and the capture do.
  nlohmann::json next_call = request;
  next_call["id"] = 8;
  EXPECT_EQ(SanitizerMemo::key(CheckName::Memcheck, next_call, capture), key);
  EXPECT_NE(SanitizerMemo::key(CheckName::Racecheck, request, capture), key);
  nlohmann::json other_cubin = request;
  other_cubin["variant_cubin"] = "/cache/cd/cd34.cubin";
  EXPECT_NE(SanitizerMemo::key(CheckName::Memcheck, other_cubin, capture), key);
  nlohmann::json other_capture = capture;
  other_capture["shape"] = "n=2048";
  EXPECT_NE(SanitizerMemo::key(CheckName::Memcheck, request, other_capture), key);
}

TEST_F(SanitizerMemoTest, FailuresAndChecksThatCouldNotRunAreNeverKept) {
  SanitizerMemo memo(dir);
  std::string key = SanitizerMemo::key(CheckName::Racecheck, request, capture);
  memo.remember(key, Check{CheckName::Racecheck, false, "1 hazard"});
  EXPECT_FALSE(memo.find(CheckName::Racecheck, key));
  memo.remember(key, Check{CheckName::Racecheck, std::nullopt, "not run: no compute-sanitizer"});
  EXPECT_FALSE(memo.find(CheckName::Racecheck, key));
}

}  // namespace
}  // namespace stark::harness
