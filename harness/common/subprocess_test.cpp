#include "harness/common/subprocess.h"

#include <string>
#include <chrono>
#include <gtest/gtest.h>

#include <csignal>
#include <map>

namespace stark::harness {
namespace {

using namespace std::chrono_literals;

TEST(RunCommand, CollectsOutputAndExitCode) {
  auto r = run_command({"sh", "-c", "echo out; echo err >&2; exit 3"});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->status.code, 3);
  EXPECT_FALSE(r->status.success());
  EXPECT_NE(r->output.find("out"), std::string::npos);
  EXPECT_NE(r->output.find("err"), std::string::npos);
  EXPECT_EQ(r->status.describe(), "exit code 3");
}

TEST(RunCommand, TimeLimitEndsTheWholeGroup) {
  auto start = std::chrono::steady_clock::now();
  CommandOptions options;
  options.timeout = 300ms;
  auto r = run_command({"sh", "-c", "sleep 30 & sleep 30; echo never"}, options);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->status.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);  // the background sleep did not hold the pipe open
  EXPECT_EQ(r->output.find("never"), std::string::npos);
}

TEST(RunCommand, EnvironmentAndFolder) {
  CommandOptions options;
  options.cwd = "/tmp";
  options.env = {{"STARK_TEST_VAR", "hello"}};
  auto r = run_command({"sh", "-c", "echo $STARK_TEST_VAR; pwd"}, options);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->output, "hello\n/tmp\n");
}

TEST(RunCommand, MissingProgramIsAnError) {
  auto r = run_command({"/nonexistent/stark-program"});
  EXPECT_FALSE(r);
}

TEST(Child, LinesBothWays) {
  auto c = Child::start({"sh", "-c", "while read l; do echo \"got $l\"; done; echo bye >&2"});
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE((*c)->write_line("one"));
  std::string line;
  ASSERT_EQ((*c)->read_line(line, 5s), Child::ReadStatus::Line);
  EXPECT_EQ(line, "got one");
  EXPECT_EQ((*c)->read_line(line, 50ms), Child::ReadStatus::Timeout);
  auto status = (*c)->finish(5s);
  EXPECT_EQ(status.code, 0);
  EXPECT_EQ((*c)->stderr_tail(), "bye\n");
}

TEST(Child, CrashIsSeenAsEofAndSignal) {
  auto c = Child::start({"sh", "-c", "read l; echo dying >&2; kill -SEGV $$"});
  ASSERT_TRUE(c);
  ASSERT_TRUE((*c)->write_line("x"));
  std::string line;
  EXPECT_EQ((*c)->read_line(line, 5s), Child::ReadStatus::Eof);
  auto status = (*c)->kill();
  EXPECT_EQ(status.signal, SIGSEGV);
  EXPECT_NE(status.describe().find("signal 11"), std::string::npos);
  EXPECT_NE((*c)->stderr_tail().find("dying"), std::string::npos);
  EXPECT_FALSE((*c)->write_line("after death"));
}

}  // namespace
}  // namespace stark::harness
