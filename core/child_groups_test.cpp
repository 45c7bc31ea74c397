// An interrupted stark takes its children with it: a child in its own
// process group (which the terminal's Ctrl-C does not reach) gets the signal
// that ends this process. The process under test is a fork, so the signal
// ends it and not the test runner.
#include "core/child_groups.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "core/child_process.h"
#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// True once `pid` is gone or a zombie (ended, its parent not yet told).
bool ended(pid_t pid) {
  auto stat = read_file(fs::path("/proc") / std::to_string(pid) / "stat");
  if (!stat) return true;
  auto close = stat->rfind(')');
  return close != std::string::npos && close + 2 < stat->size() && (*stat)[close + 2] == 'Z';
}

/// Forks a process that starts `sh` in its own group (the sh writes its pid
/// to `pid_file`, then sleeps), waits for it, and raises `sig` in itself.
pid_t interrupted_parent(const fs::path& pid_file, int sig) {
  pid_t parent = ::fork();
  if (parent != 0) return parent;
  auto child = ChildProcess::start({"sh", "-c",
                                    "echo $$ > '" + pid_file.string() + ".tmp' && mv '" + pid_file.string() +
                                        ".tmp' '" + pid_file.string() + "'; exec sleep 60"},
                                   {});
  if (!child) ::_exit(3);
  for (int i = 0; i < 500 && !fs::exists(pid_file); ++i) std::this_thread::sleep_for(10ms);
  ::raise(sig);
  ::_exit(4);  // not reached: the signal ends this process
}

void expect_signal_reaches_the_group(int sig) {
  testing::TempDir dir("child_groups_test");
  fs::path pid_file = dir / "child.pid";
  pid_t parent = interrupted_parent(pid_file, sig);
  ASSERT_GT(parent, 0);
  int status = 0;
  ASSERT_EQ(::waitpid(parent, &status, 0), parent);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the parent exited with " << status;
  EXPECT_EQ(WTERMSIG(status), sig) << "it ends as the signal says";
  auto text = read_file(pid_file);
  ASSERT_TRUE(text) << "the child never started";
  pid_t child = static_cast<pid_t>(std::stol(*text));
  bool gone = false;
  for (int i = 0; i < 300 && !(gone = ended(child)); ++i) std::this_thread::sleep_for(10ms);
  if (!gone) ::kill(child, SIGKILL);
  EXPECT_TRUE(gone) << "the child in its own group outlived the interrupted parent";
}

TEST(ChildGroups, AnInterruptReachesAChildInItsOwnGroup) { expect_signal_reaches_the_group(SIGINT); }
TEST(ChildGroups, ATerminateReachesAChildInItsOwnGroup) { expect_signal_reaches_the_group(SIGTERM); }

}  // namespace
}  // namespace stark
