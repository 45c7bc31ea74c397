#include "cli/progress.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

namespace stark::cli {
namespace {

KernelResult finished(const std::string& id, KernelStatus status, int attempts, std::optional<double> base,
                      std::optional<double> best) {
  KernelResult k;
  k.id = id;
  k.status = status;
  k.attempts = attempts;
  k.baseline_us = base;
  k.best_us = best;
  if (base && best) k.speedup = *base / *best;
  return k;
}

/// A search node as the search reports an attempt.
SearchNode attempt(int id, NodeRole role, NodeStatus status, std::optional<double> time_us, std::string strategy,
                   std::string diagnostics, std::map<std::string, double> seconds = {}) {
  SearchNode n;
  n.id = id;
  n.role = role;
  n.status = status;
  n.time_us = time_us;
  n.strategy = std::move(strategy);
  n.diagnostics = std::move(diagnostics);
  n.seconds = std::move(seconds);
  return n;
}

/// Two kernels: saxpy improves over three attempts; histogram fails after one of its budget of five.
void drive(ProgressDisplay& p) {
  p.begin_run(2, 8);
  p.begin_kernel("src/ops.cu:saxpy", 3, 412.0);
  p.attempt(attempt(1, NodeRole::PlanCode, NodeStatus::CompileError, std::nullopt, "stage x in shared memory",
                    "ops.cu(9): error: tile\nmore"));
  p.attempt(attempt(2, NodeRole::Debug, NodeStatus::Accepted, 318.0, "declare the tile", ""));
  p.attempt(attempt(3, NodeRole::PlanCode, NodeStatus::Accepted, 224.0, "four float4 per thread", "",
                    {{"sanitize", 9.31},
                     {"compile", 2.1},
                     {"judge", 4.0},
                     {"judge.timing", 1.0},
                     {"judge.load", 0.01},
                     {"judge.queued", 2.5}}));
  p.end_kernel(finished("src/ops.cu:saxpy", KernelStatus::Improved, 3, 412.0, 224.0));
  p.begin_kernel("src/h.cu:histogram", 5, 95.0);
  p.message("stark: warning: worker restarted");
  p.attempt(attempt(1, NodeRole::PlanCode, NodeStatus::Rejected, std::nullopt, "shared bins", "racecheck: 3 hazards"));
  p.end_kernel(finished("src/h.cu:histogram", KernelStatus::Failed, 1, 95.0, std::nullopt));
  Result r;
  r.kernels = {finished("a", KernelStatus::Improved, 3, 412.0, 224.0),
               finished("b", KernelStatus::Failed, 1, 95.0, {})};
  p.end_run(r);
}

std::string run(ProgressStyle style) {
  std::ostringstream out;
  {
    ProgressDisplay p(out, style);
    drive(p);
  }
  return out.str();
}

TEST(Progress, PlainLinesWhenNotATerminal) {
  std::string out = run({false, false, 80, Verbosity::Normal});
  EXPECT_EQ(out,
            "[1/8] saxpy (1/2) baseline 412 us | #1 plan+code compile_error: stage x in shared memory\n"
            "[2/8] saxpy (1/2) best 1.30x | #2 debug accepted 318 us: declare the tile\n"
            "[3/8] saxpy (1/2) best 1.84x | #3 plan+code accepted 224 us: four float4 per thread\n"
            "saxpy: improved 1.84x (412 us -> 224 us) in 3 attempts\n"
            "stark: warning: worker restarted\n"
            "[4/8] histogram (2/2) baseline 95.0 us | #1 plan+code rejected: shared bins\n"
            "histogram: failed after 1 attempt\n"
            "1 of 2 kernels faster (geometric mean 1.84x), 4 attempts\n");
}

TEST(Progress, AFailedKernelSaysWhyOnItsLine) {
  std::ostringstream out;
  {
    ProgressDisplay p(out, {false, false, 80, Verbosity::Normal});
    p.begin_run(1, 4);
    p.begin_kernel("src/a.cu:scale", 4, std::nullopt);
    KernelResult k = finished("src/a.cu:scale", KernelStatus::Failed, 0, std::nullopt, std::nullopt);
    k.checks = {{CheckName::Compile, true, ""},
                {CheckName::Source, false, "no launch of it was recorded while the test command ran\n(second line)"}};
    p.end_kernel(k);
  }
  EXPECT_NE(out.str().find("scale: failed after 0 attempts: source: no launch of it was recorded while the test "
                           "command ran\n"),
            std::string::npos)
      << out.str();
}

TEST(Progress, OneLineRewrittenInPlaceOnATerminal) {
  std::string out = run({true, false, 60, Verbosity::Normal});
  // Status updates start with \r and end with "clear to end of line", never with a newline.
  EXPECT_NE(out.find("\r[3/8] saxpy (1/2) best 1.84x | #3 plan+code accepted 224...\033[K"), std::string::npos) << out;
  // Permanent lines first clear the status line.
  EXPECT_NE(out.find("\r\033[Ksaxpy: improved 1.84x (412 us -> 224 us) in 3 attempts\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\r\033[Kstark: warning: worker restarted\n"), std::string::npos) << out;
  // The kernel lines already cleared the status line: the summary follows on its own line.
  EXPECT_NE(out.find("\033[Khistogram: failed after 1 attempt\n1 of 2 kernels faster"), std::string::npos) << out;
  // No status line is wider than the terminal.
  size_t at = 0;
  while ((at = out.find('\r', at)) != std::string::npos) {
    size_t end = out.find_first_of("\r\n", at + 1);
    std::string seg = out.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    if (seg.rfind("\033[K", 0) == 0) seg = seg.substr(3);
    if (auto k = seg.find("\033[K"); k != std::string::npos) seg.resize(k);
    EXPECT_LE(seg.size(), 59u) << seg;
    at = at + 1;
  }
  EXPECT_EQ(out.find("\033[1m"), std::string::npos) << "no colour unless asked";
}

TEST(Progress, ColoursOnlyWhenTheStyleSaysSo) {
  std::string out = run({true, true, 120, Verbosity::Normal});
  EXPECT_NE(out.find("\033[1msaxpy\033[0m"), std::string::npos);
  EXPECT_NE(out.find("best \033[32m1.84x\033[0m"), std::string::npos);
  EXPECT_NE(out.find("\033[31mfailed\033[0m"), std::string::npos);
}

TEST(Progress, QuietPrintsOnlyMessages) {
  EXPECT_EQ(run({false, false, 80, Verbosity::Quiet}), "stark: warning: worker restarted\n");
  std::string tty = run({true, true, 80, Verbosity::Quiet});
  EXPECT_EQ(tty, "stark: warning: worker restarted\n");
}

TEST(Progress, VerboseKeepsEveryAttemptWithItsDiagnostic) {
  std::string out = run({false, false, 80, Verbosity::Verbose});
  EXPECT_NE(out.find("src/ops.cu:saxpy: searching, budget 3, original 412 us\n"), std::string::npos) << out;
  EXPECT_NE(out.find("[1/8] saxpy #1 plan+code compile_error: stage x in shared memory -- ops.cu(9): error: tile\n"),
            std::string::npos)
      << out;
  // Where the evaluation's time went, in the order the phases run (the
  // judge's parts too, leaving out what took no time).
  EXPECT_NE(out.find("[3/8] saxpy #3 plan+code accepted 224 us (1.84x): four float4 per thread "
                     "[compile 2.1 s, judge 4.0 s (queued 2.5, timing 1.0), sanitize 9.3 s]\n"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("more"), std::string::npos) << "only the first diagnostic line";
  EXPECT_EQ(out.find(" | "), std::string::npos) << "no status lines duplicating the attempt lines in a log";
}

TEST(Progress, MoreAttemptsThanAnnouncedNeverShowPastTheTotal) {
  std::ostringstream out;
  ProgressDisplay p(out, {false, false, 80, Verbosity::Normal});
  p.begin_run(1, 1);
  p.begin_kernel("k.cu:k", 1, std::nullopt);
  p.attempt(attempt(1, NodeRole::PlanCode, NodeStatus::Error, std::nullopt, "", ""));
  p.attempt(attempt(2, NodeRole::Debug, NodeStatus::Error, std::nullopt, "", ""));
  EXPECT_NE(out.str().find("[2/2] k | #2 debug error\n"), std::string::npos) << out.str();
}

TEST(Progress, FormatsTimesInAscii) {
  EXPECT_EQ(progress_time(224.0), "224 us");
  EXPECT_EQ(progress_time(8630.0), "8.63 ms");
  EXPECT_EQ(progress_time(3.1e6), "3.10 s");
}

/// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? setenv(name, value, 1) : unsetenv(name);
  }
  ~ScopedEnv() { old_ ? setenv(name_, old_->c_str(), 1) : unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

/// A pseudo-terminal: a real terminal for isatty() and TIOCGWINSZ.
struct Pty {
  int master = -1, slave = -1;
  Pty() {
    master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) return;
    slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    winsize ws{};
    ws.ws_col = 101;
    ws.ws_row = 30;
    ioctl(slave, TIOCSWINSZ, &ws);
  }
  ~Pty() {
    if (slave >= 0) close(slave);
    if (master >= 0) close(master);
  }
};

TEST(ProgressStyle, DetectsATerminalItsWidthAndNoColor) {
  Pty pty;
  ASSERT_GE(pty.slave, 0) << "no pseudo-terminal available";
  ScopedEnv term("TERM", "xterm-256color");
  {
    ScopedEnv no_color("NO_COLOR", nullptr);
    auto s = ProgressStyle::detect(pty.slave, Verbosity::Verbose);
    EXPECT_TRUE(s.terminal);
    EXPECT_TRUE(s.color);
    EXPECT_EQ(s.width, 101);
    EXPECT_EQ(s.verbosity, Verbosity::Verbose);
  }
  {
    ScopedEnv no_color("NO_COLOR", "1");
    auto s = ProgressStyle::detect(pty.slave, Verbosity::Normal);
    EXPECT_TRUE(s.terminal);
    EXPECT_FALSE(s.color);
  }
  {
    ScopedEnv dumb("TERM", "dumb");
    auto s = ProgressStyle::detect(pty.slave, Verbosity::Normal);
    EXPECT_FALSE(s.terminal);
    EXPECT_FALSE(s.color);
  }
}

TEST(ProgressStyle, APipeIsNotATerminal) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ScopedEnv no_color("NO_COLOR", nullptr);
  ScopedEnv cols("COLUMNS", "132");
  auto s = ProgressStyle::detect(fds[1], Verbosity::Normal);
  EXPECT_FALSE(s.terminal);
  EXPECT_FALSE(s.color);
  EXPECT_EQ(s.width, 132);
  close(fds[0]);
  close(fds[1]);
}

}  // namespace
}  // namespace stark::cli
