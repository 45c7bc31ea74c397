#include "core/child_process.h"

#include <gtest/gtest.h>

#include <csignal>

#include "core/text.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using Read = ChildProcess::ReadStatus;

std::unique_ptr<ChildProcess> start(const std::vector<std::string>& argv, const SpawnOptions& options = {}) {
  auto c = ChildProcess::start(argv, options);
  if (!c) ADD_FAILURE() << c.error().message;
  return c ? std::move(*c) : nullptr;
}

TEST(ChildProcess, LinesBothWays) {
  auto c = start({"sh", "-c", "while read l; do echo \"got $l\"; done; echo bye >&2"});
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->write_line("one"));
  ASSERT_TRUE(c->write_raw("two\n"));
  std::string line;
  ASSERT_EQ(c->read_line(line, 5s), Read::Line);
  EXPECT_EQ(line, "got one");
  ASSERT_EQ(c->read_line(line, 5s), Read::Line);
  EXPECT_EQ(line, "got two");
  EXPECT_EQ(c->read_line(line, 50ms), Read::Timeout);
  EXPECT_TRUE(c->running());
  auto status = c->finish(5s);
  EXPECT_TRUE(status.success()) << status.describe();
  EXPECT_FALSE(c->running());
  EXPECT_EQ(c->stderr_tail(), "bye\n");
}

TEST(ChildProcess, ACrashIsSeenAsEofAndItsSignal) {
  auto c = start({"sh", "-c", "read l; echo dying >&2; kill -SEGV $$"});
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->write_line("x"));
  std::string line;
  EXPECT_EQ(c->read_line(line, 5s), Read::Eof);
  auto status = c->kill();
  EXPECT_EQ(status.kind, ExitStatus::Kind::Signaled);
  EXPECT_EQ(status.signal, SIGSEGV);
  EXPECT_NE(c->stderr_tail().find("dying"), std::string::npos);
  EXPECT_FALSE(c->write_line("after death"));
}

TEST(ChildProcess, FinishKillsAChildPastItsTime) {
  auto c = start({"sleep", "30"});
  ASSERT_TRUE(c);
  auto begin = Clock::now();
  auto status = c->finish(200ms);
  EXPECT_LT(Clock::now() - begin, 5s);
  EXPECT_TRUE(status.timed_out()) << status.describe();
}

TEST(ChildProcess, KillEndsWhatTheChildStarted) {
  stark::testing::TempDir tmp;
  fs::path marker = tmp / "survived";
  auto c = start({"sh", "-c", "(sleep 0.5; touch " + shell_quote(marker.string()) + ") & echo started; read l"});
  ASSERT_TRUE(c);
  std::string line;
  ASSERT_EQ(c->read_line(line, 5s), Read::Line);  // the background job runs
  c->kill();
  std::this_thread::sleep_for(1s);
  EXPECT_FALSE(fs::exists(marker)) << "the child's background job outlived it";
}

TEST(ChildProcess, StartsWithItsEnvironment) {
  SpawnOptions o;
  o.env = {{"STARK_TEST_VAR", "hello"}};
  auto c = start({"sh", "-c", "echo $STARK_TEST_VAR"}, o);
  ASSERT_TRUE(c);
  std::string line;
  ASSERT_EQ(c->read_line(line, 5s), Read::Line);
  EXPECT_EQ(line, "hello");
}

TEST(ChildProcess, KeepsTheEndOfALongStderr) {
  auto c = start({"sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x >&2; echo last >&2"});
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->finish(5s).success());
  std::string tail = c->stderr_tail();
  EXPECT_EQ(tail.size(), 16384u);
  EXPECT_TRUE(tail.ends_with("xxlast\n"));
}

}  // namespace
}  // namespace stark
