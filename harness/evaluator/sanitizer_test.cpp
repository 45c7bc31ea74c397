// run_sanitizer against a stand-in compute-sanitizer (a script that records
// its arguments and starts the worker command it was given): what each tool
// is asked for, and that only a reply answering the request counts as a pass.
// The attack itself (a read one element past the end, which lands in the
// neighbouring allocation unless memcheck pads) is in the GPU attack suite:
// tests/harness/variants/scale/read_past_the_end.cu.
#include "harness/evaluator/sanitizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "core/file_io.h"
#include "core/text.h"
#include "tests/support/stand_in_wrapper.h"

namespace stark::harness {
namespace {

namespace fs = std::filesystem;

class SanitizerTest : public ::testing::Test {
 protected:
  /// The arguments the stand-in was started with, one per element.
  std::vector<std::string> args() const { return sanitizer.args(); }
  Check run(CheckName which, const std::string& worker_script) {
    return run_sanitizer(which, sanitizer.path(), {"/bin/sh", "-c", worker_script}, {{"op", "run_once"}},
                         std::chrono::seconds(20), dir / "tmp");
  }
  stark::testing::StandInWrapper sanitizer{"compute-sanitizer"};
  const fs::path& dir = sanitizer.dir();
};

// Answers the request with its own number, as stark-worker does.
const std::string kAnsweringWorker =
    "read l; seq=$(printf '%s' \"$l\" | sed 's/.*\"seq\":\\([0-9]*\\).*/\\1/'); "
    "printf '{\"seq\":%s,\"status\":\"ok\"}\\n' \"$seq\"; read l";

TEST_F(SanitizerTest, MemcheckPadsEveryAllocationSoAReadPastTheEndLeavesIt) {
  Check c = run(CheckName::Memcheck, kAnsweringWorker);
  EXPECT_EQ(c.ok, std::optional<bool>(true)) << c.detail;
  auto a = args();
  auto at = std::find(a.begin(), a.end(), "--padding");
  ASSERT_NE(at, a.end()) << join(a, " ");
  ASSERT_NE(at + 1, a.end());
  EXPECT_GE(std::stoll(*(at + 1)), 4096) << "narrower than a strided read could step over";
  EXPECT_LT(at - a.begin(), std::find(a.begin(), a.end(), "/bin/sh") - a.begin()) << "an option after the worker";
}

TEST_F(SanitizerTest, RacecheckRunsWithoutMemcheckOptions) {
  Check c = run(CheckName::Racecheck, kAnsweringWorker);
  EXPECT_EQ(c.ok, std::optional<bool>(true)) << c.detail;
  auto a = args();
  EXPECT_EQ(std::find(a.begin(), a.end(), "--padding"), a.end()) << join(a, " ");
  EXPECT_NE(std::find(a.begin(), a.end(), "racecheck"), a.end());
}

// Attack: the candidate's process prints a clean reply of its own before the
// worker answers. Without the request's number it is no evidence.
TEST_F(SanitizerTest, AReplyWithoutTheRequestsNumberIsNoPass) {
  Check c = run(CheckName::Memcheck, "read l; printf '{\"status\":\"ok\"}\\n'; read l");
  EXPECT_EQ(c.ok, std::optional<bool>(false)) << c.detail;
  EXPECT_NE(c.detail.find("does not answer its request"), std::string::npos) << c.detail;
}

}  // namespace
}  // namespace stark::harness
