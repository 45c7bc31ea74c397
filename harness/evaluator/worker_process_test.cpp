#include "harness/evaluator/worker_process.h"

#include <vector>
#include <string>
#include <chrono>
#include <gtest/gtest.h>

namespace stark::harness {
namespace {

using namespace std::chrono_literals;

// Workers here are small shell programs that speak the protocol and then
// misbehave on purpose; the real stark-worker is tested without a GPU below.
// `reply '{...}'` answers with the request's sequence number added, as the
// real worker does; `echo` answers without it.
std::vector<std::string> scripted(const std::string& on_request) {
  return {
      "sh", "-c",
      "reply() { printf '%s\\n' \"${1%?},\\\"seq\\\":$seq}\"; }; "
      "while read line; do seq=$(printf '%s' \"$line\" | sed -n 's/.*\"seq\":\\([0-9]*\\).*/\\1/p'); "
      "case \"$line\" in "
      "*hello*) reply "
      "'{\"ok\":true,\"gpu\":{\"name\":\"Scripted\",\"sm\":\"90\",\"driver\":\"0\",\"cuda\":\"13.0\"},\"pid\":1}';; "
      "*shutdown*) exit 0;; "
      "*) " +
          on_request + ";; esac; done"};
}

TEST(WorkerProcess, GreetsAndAnswers) {
  WorkerProcess w(scripted("reply '{\"status\":\"ok\",\"id\":1}'"));
  auto gpu = w.start();
  ASSERT_TRUE(gpu) << gpu.error().message;
  EXPECT_EQ(gpu->name, "Scripted");
  auto out = w.request({{"op", "evaluate"}}, 5s);
  ASSERT_EQ(out.kind, WorkerProcess::Outcome::Kind::Reply);
  EXPECT_EQ(out.reply["status"], "ok");
  EXPECT_EQ(w.starts(), 1);
}

TEST(WorkerProcess, CrashIsReportedAndTheNextRequestRestarts) {
  WorkerProcess w(scripted("echo 'segfault coming' >&2; kill -SEGV $$"));
  auto out = w.request({{"op", "evaluate"}}, 5s);
  ASSERT_EQ(out.kind, WorkerProcess::Outcome::Kind::Crashed);
  EXPECT_NE(out.detail.find("signal 11"), std::string::npos) << out.detail;
  EXPECT_NE(out.detail.find("segfault coming"), std::string::npos) << out.detail;
  out = w.request({{"op", "evaluate"}}, 5s);
  EXPECT_EQ(out.kind, WorkerProcess::Outcome::Kind::Crashed);
  EXPECT_EQ(w.starts(), 2);
}

TEST(WorkerProcess, HangIsStoppedByTheWatchdog) {
  WorkerProcess w(scripted("sleep 60"));
  auto start = std::chrono::steady_clock::now();
  auto out = w.request({{"op", "evaluate"}}, 500ms);
  EXPECT_EQ(out.kind, WorkerProcess::Outcome::Kind::TimedOut);
  EXPECT_NE(out.detail.find("watchdog"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST(WorkerProcess, FaultReplyEndsTheWorkerWhichIsRestarted) {
  // A worker whose kernel faulted replies, then exits: the next request needs a new one.
  WorkerProcess w(scripted("reply '{\"status\":\"fault\",\"detail\":\"illegal address\"}'; exit 0"));
  auto out = w.request({{"op", "evaluate"}}, 5s);
  ASSERT_EQ(out.kind, WorkerProcess::Outcome::Kind::Reply);
  EXPECT_EQ(out.reply["status"], "fault");
  out = w.request({{"op", "evaluate"}}, 5s);
  EXPECT_EQ(out.kind, WorkerProcess::Outcome::Kind::Reply);
  EXPECT_EQ(w.starts(), 2);
}

TEST(WorkerProcess, GarbageAndRefusals) {
  WorkerProcess garbage({"sh", "-c", "read line; echo 'this is not json'"});
  auto g = garbage.start();
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().message.find("not JSON"), std::string::npos);

  WorkerProcess no_gpu({"sh", "-c",
                        "read line; seq=$(printf '%s' \"$line\" | sed -n 's/.*\"seq\":\\([0-9]*\\).*/\\1/p'); "
                        "printf '{\"ok\":false,\"error\":\"no CUDA device here\",\"seq\":%s}\\n' \"$seq\""});
  auto n = no_gpu.start();
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error().message, "no CUDA device here");

  WorkerProcess missing({"/nonexistent/stark-worker"});
  auto m = missing.request({{"op", "evaluate"}}, 1s);
  EXPECT_EQ(m.kind, WorkerProcess::Outcome::Kind::NotStarted);
  EXPECT_FALSE(m.detail.empty());
}

// A line on the worker's stdout that does not carry the request's number is
// not its answer (a kernel's printf, a stale reply): it is never taken.
TEST(WorkerProcess, AReplyWithoutItsRequestsNumberIsNotTaken) {
  for (const char* forged : {"echo '{\"status\":\"ok\",\"id\":1,\"checks\":[]}'",
                             "echo '{\"status\":\"ok\",\"seq\":1}'; reply '{\"status\":\"ok\"}'"}) {
    SCOPED_TRACE(forged);
    WorkerProcess w(scripted(forged));
    ASSERT_TRUE(w.start());
    auto out = w.request({{"op", "evaluate"}, {"id", 1}}, 5s);
    ASSERT_EQ(out.kind, WorkerProcess::Outcome::Kind::Crashed);
    EXPECT_NE(out.detail.find("does not answer request"), std::string::npos) << out.detail;
  }
}

TEST(WorkerProcess, SequenceNumbersAreEchoedAndRemoved) {
  WorkerProcess w(scripted("reply '{\"status\":\"ok\"}'"));
  for (int i = 0; i < 3; ++i) {
    auto out = w.request({{"op", "evaluate"}}, 5s);
    ASSERT_EQ(out.kind, WorkerProcess::Outcome::Kind::Reply) << out.detail;
    EXPECT_FALSE(out.reply.contains("seq"));
  }
  EXPECT_EQ(w.starts(), 1);
}

TEST(WorkerProcess, RealWorkerWithoutAGpuSaysSoInOneLine) {
  WorkerProcess w({STARK_WORKER_PATH, "--device", "0"});
  auto gpu = w.start();
  if (gpu) GTEST_SKIP() << "this machine has a GPU: " << gpu->name;
  EXPECT_EQ(gpu.error().message.find('\n'), std::string::npos);
  EXPECT_TRUE(gpu.error().message.find("driver") != std::string::npos ||
              gpu.error().message.find("device") != std::string::npos)
      << gpu.error().message;
}

}  // namespace
}  // namespace stark::harness
