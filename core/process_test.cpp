#include "core/process.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <thread>

#include "core/child_process.h"
#include "core/text.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

ProcessResult run(const std::vector<std::string>& argv, const ProcessOptions& options = {}) {
  auto r = run_process(argv, options);
  if (!r) ADD_FAILURE() << r.error().message;
  return r ? *r : ProcessResult{};
}

ProcessOptions limited(std::chrono::milliseconds timeout) {
  ProcessOptions o;
  o.timeout = timeout;
  return o;
}

TEST(RunProcess, MergesStdoutAndStderrAndReportsTheExitCode) {
  auto r = run({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_EQ(r.status.kind, ExitStatus::Kind::Exited);
  EXPECT_EQ(r.status.code, 3);
  EXPECT_FALSE(r.status.success());
  EXPECT_EQ(r.status.describe(), "exit code 3");
  EXPECT_EQ(r.output, "out\nerr\n");
  EXPECT_EQ(r.err, "");
}

TEST(RunProcess, KeepsStderrApartWhenAsked) {
  ProcessOptions o;
  o.output = ProcessOutput::Separate;
  auto r = run({"sh", "-c", "echo out; echo err >&2"}, o);
  EXPECT_TRUE(r.status.success());
  EXPECT_EQ(r.output, "out\n");
  EXPECT_EQ(r.err, "err\n");
}

TEST(RunProcess, ATimeLimitKillsTheChildAndWhatItStartedAndLeavesNoZombie) {
  TempDir tmp;
  fs::path marker = tmp / "survived";
  auto start = Clock::now();
  auto r = run({"sh", "-c", "(sleep 0.5; touch " + shell_quote(marker.string()) + ") & sleep 30; echo never"},
               limited(200ms));
  EXPECT_LT(Clock::now() - start, 5s);
  EXPECT_TRUE(r.status.timed_out());
  EXPECT_EQ(r.status.code, -1);
  EXPECT_EQ(r.status.describe(), "stopped at its time limit");
  EXPECT_EQ(r.output.find("never"), std::string::npos);
  EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
  std::this_thread::sleep_for(1s);
  EXPECT_FALSE(fs::exists(marker)) << "the child's background job outlived the time limit";
}

TEST(RunProcess, ATimeLimitStopsAChildWithoutPipes) {
  ProcessOptions o = limited(200ms);
  o.output = ProcessOutput::Inherited;
  auto start = Clock::now();
  auto r = run({"sleep", "30"}, o);
  EXPECT_LT(Clock::now() - start, 5s);
  EXPECT_TRUE(r.status.timed_out());
}

TEST(RunProcess, AChildKilledByASignalIsNotAnExitCode) {
  auto r = run({"sh", "-c", "kill -SEGV $$"});
  EXPECT_EQ(r.status.kind, ExitStatus::Kind::Signaled);
  EXPECT_EQ(r.status.signal, SIGSEGV);
  EXPECT_EQ(r.status.code, -1);
  EXPECT_EQ(r.status.describe().rfind("killed by signal 11 (", 0), 0u) << r.status.describe();
}

TEST(RunProcess, OutputPastTheCapKeepsItsEnd) {
  ProcessOptions o;
  o.max_output = 100;
  auto r = run({"seq", "1", "100000"}, o);
  EXPECT_TRUE(r.status.success());
  ASSERT_EQ(r.output.size(), 100u);
  EXPECT_TRUE(r.output.ends_with("\n99999\n100000\n")) << r.output;
}

TEST(RunProcess, OutputPastTheCapCanStopTheChild) {
  ProcessOptions o;
  o.max_output = 1000;
  o.overflow = OutputOverflow::Stop;
  auto r = run({"yes"}, o);
  EXPECT_EQ(r.status.kind, ExitStatus::Kind::OutputLimit);
  EXPECT_EQ(r.status.describe(), "stopped at its output limit");
  EXPECT_LE(r.output.size(), 1000u);
}

TEST(RunProcess, WritesItsInputToStdin) {
  ProcessOptions o;
  o.input = "one\ntwo\n";
  EXPECT_EQ(run({"cat"}, o).output, "one\ntwo\n");

  o.input = std::string(4 << 20, 'x');  // far more than a pipe holds
  EXPECT_EQ(trim(run({"wc", "-c"}, o).output), "4194304");
}

TEST(RunProcess, AChildThatIgnoresItsInputStillFinishes) {
  ProcessOptions o = limited(20s);
  o.input = std::string(4 << 20, 'x');
  auto r = run({"echo", "early"}, o);
  EXPECT_TRUE(r.status.success()) << r.status.describe();
  EXPECT_EQ(r.output, "early\n");
}

TEST(RunProcess, RunsInItsFolderWithItsEnvironment) {
  ProcessOptions o = ProcessOptions::in("/");
  o.env = {{"STARK_TEST_VAR", "hello"}, {"HOME", "/nowhere"}};
  EXPECT_EQ(run({"sh", "-c", "echo $STARK_TEST_VAR; echo $HOME; pwd"}, o).output, "hello\n/nowhere\n/\n");
}

// The descriptors the layer opens are the lowest free ones; none may reach
// the child but as its stdin, stdout and stderr.
TEST(RunProcess, TheChildGetsNoDescriptorOfOurs) {
  std::vector<UniqueFd> probes;
  for (int i = 0; i < 6; ++i) probes.emplace_back(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  std::string fds;
  for (const auto& p : probes) fds += " " + std::to_string(p.get());
  probes.clear();
  auto other = ChildProcess::start({"cat"});  // a second child's pipes are open meanwhile
  ASSERT_TRUE(other) << other.error().message;
  ProcessOptions o = limited(10s);  // a leaked end of its own stdin would keep `cat` waiting
  o.input = "x";
  o.output = ProcessOutput::Separate;
  auto r =
      run({"sh", "-c", "cat >/dev/null; for fd in" + fds + "; do [ -e /proc/$$/fd/$fd ] && echo $fd; done; true"}, o);
  EXPECT_TRUE(r.status.success()) << r.status.describe();
  EXPECT_EQ(r.output, "") << "descriptors the child holds:" << fds;
}

TEST(RunProcess, AMissingProgramIsAnError) {
  auto r = run_process({"/nonexistent/stark-program"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.rfind("cannot run '/nonexistent/stark-program': ", 0), 0u) << r.error().message;
}

}  // namespace
}  // namespace stark
