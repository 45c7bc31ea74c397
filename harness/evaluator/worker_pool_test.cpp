// The worker pool with real stark-worker processes in --no-gpu mode: shipped
// requests, the per-worker blob cache, and lost workers re-queued. The same
// under SLURM: tests/executor/slurm_test.cpp.
#include "harness/evaluator/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

#include "core/hash.h"
#include "harness/evaluator/gpu_evaluator.h"
#include "harness/testing/scale_evaluator_test.h"
#include "harness/testing/worker_loss.h"
#include "harness/worker/no_gpu_check.h"

namespace stark::harness {
namespace {

class WorkerPoolTest : public testing::ScaleEvaluatorTest {
 protected:
  void SetUp() override {
    ScaleEvaluatorTest::SetUp();
    options.sm = "90";
    options.worker = {STARK_WORKER_PATH, "--no-gpu", "--cache", (p->root() / "node-cache").string()};
    options.ship = true;
  }
  static Variant variant(int k) { return distinct_variant(k); }
};

TEST_F(WorkerPoolTest, ShippedCandidatesAreCheckedByWorkersWithoutAGpu) {
  options.workers = 1;
  GpuEvaluator ev(p->manifest(), options);
  EXPECT_FALSE(ev.gpu());
  EXPECT_NE(ev.no_gpu_reason().find("--no-gpu"), std::string::npos) << ev.no_gpu_reason();
  Evaluation e = ev.evaluate(kernel(), variant(1));
  EXPECT_EQ(e.verdict, Verdict::Error) << e.reason;
  EXPECT_TRUE(e.untimed);
  EXPECT_NE(e.reason.find("checked by a worker without a GPU on 1 capture"), std::string::npos) << e.reason;
  ASSERT_NE(find(e, CheckName::WorkerInputs), nullptr) << e.reason;
  EXPECT_EQ(find(e, CheckName::WorkerInputs)->ok, true);
  ASSERT_NE(find(e, CheckName::Launch), nullptr);
  EXPECT_EQ(find(e, CheckName::Launch)->ok, true);
  EXPECT_NE(find(e, CheckName::Launch)->detail.find("grid (16,1,1) block (256,1,1)"), std::string::npos)
      << find(e, CheckName::Launch)->detail;
  EXPECT_EQ(find(e, CheckName::Correctness)->ok, std::nullopt);
  // The phases that ran, timed; nothing was sanitized.
  EXPECT_EQ(e.seconds.count("compile"), 1u);
  EXPECT_EQ(e.seconds.count("judge"), 1u);
  EXPECT_EQ(e.seconds.count("judge.queued"), 1u);
  EXPECT_EQ(e.seconds.count("sanitize"), 0u);

  // Sent once: two cubins and the capture's snapshots (x and y before the launch).
  auto first = ev.workers().stats();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].blobs_sent, 4);
  // The next candidate sends only its own cubin: the original's and the
  // capture are cached by the worker.
  Evaluation again = ev.evaluate(kernel(), variant(2));
  EXPECT_TRUE(again.untimed) << again.reason;
  EXPECT_EQ(ev.workers().stats()[0].blobs_sent, 5);
  EXPECT_EQ(ev.workers().stats()[0].served, 2);
  EXPECT_EQ(ev.workers().stats()[0].starts, 1);
}

TEST_F(WorkerPoolTest, TheWorkerChecksTheLaunchOverride) {
  options.workers = 1;
  GpuEvaluator ev(p->manifest(), options);
  Variant v = variant(3);
  v.launch.block = {"2048"};
  v.launch.grid = {"ceil_div(n, 2048)"};
  Evaluation e = ev.evaluate(kernel(), v);
  EXPECT_EQ(e.verdict, Verdict::Rejected) << e.reason;
  EXPECT_EQ(e.reason.rfind("launch: ", 0), 0u) << e.reason;
  EXPECT_NE(e.reason.find("2048"), std::string::npos) << e.reason;
}

TEST_F(WorkerPoolTest, ALostWorkerIsReplacedAndItsCandidateRequeued) {
  options.workers = 2;
  GpuEvaluator reference_ev(p->manifest(), options);
  (void)reference_ev.evaluate(kernel(), variant(4));  // compiled once: both below read the compile cache
  Evaluation reference = reference_ev.evaluate(kernel(), variant(4));

  GpuEvaluator ev(p->manifest(), options);
  std::atomic<int> killed{0};
  // The worker of the first request written goes away before it answers.
  ev.workers().on_dispatch = [&](int, const WorkerHello& h) {
    if (killed++ == 0) testing::lose_mid_flight(h.pid);
  };
  Evaluation e = ev.evaluate(kernel(), variant(4));
  EXPECT_EQ(killed.load(), 2);  // dispatched twice: the lost attempt and the re-queued one
  EXPECT_EQ(e.verdict, reference.verdict) << e.reason;
  EXPECT_EQ(e.reason, reference.reason);
  EXPECT_EQ(e.checks, reference.checks);
  int lost = 0, starts = 0;
  for (const auto& s : ev.workers().stats()) {
    lost += s.lost;
    starts += s.starts;
  }
  EXPECT_EQ(lost, 1);
  EXPECT_EQ(starts, 3);  // two workers, one of them started again
}

TEST_F(WorkerPoolTest, ACandidateThatKeepsLosingWorkersIsRejectedWithTheLosses) {
  options.workers = 1;
  options.max_losses = 1;
  GpuEvaluator ev(p->manifest(), options);
  ev.workers().on_dispatch = [&](int, const WorkerHello& h) { testing::lose_mid_flight(h.pid); };
  Evaluation e = ev.evaluate(kernel(), variant(5));
  EXPECT_EQ(e.verdict, Verdict::Rejected) << e.reason;
  EXPECT_EQ(e.reason.rfind("no_crash: ", 0), 0u) << e.reason;
  EXPECT_NE(e.reason.find("lost 2 workers"), std::string::npos) << e.reason;
}

TEST(WorkerBlobs, DamagedOrUnknownBlobsAreRefusedAndTheStreamStaysInStep) {
  auto dir = std::filesystem::path(STARK_BINARY_DIR) / "test-scratch" / "worker-blobs";
  std::filesystem::remove_all(dir);
  WorkerProcess w({STARK_WORKER_PATH, "--no-gpu", "--cache", dir.string()});
  auto hello = w.greet();
  ASSERT_TRUE(hello) << hello.error().message;
  EXPECT_EQ(hello->mode, "no-gpu");
  EXPECT_FALSE(hello->gpu);
  using namespace std::chrono_literals;
  std::string blob = "cubin bytes";
  std::string hash = content_hash(blob);
  auto wrong =
      w.request({{"op", "put"}, {"hash", content_hash("other")}, {"kind", "file"}, {"bytes", blob.size()}}, 10s, blob);
  ASSERT_EQ(wrong.kind, WorkerProcess::Outcome::Kind::Reply);
  EXPECT_FALSE(wrong.reply.value("ok", true));
  EXPECT_NE(wrong.reply.value("error", "").find("damaged"), std::string::npos) << wrong.reply.dump();
  auto have = w.request({{"op", "have"}, {"blobs", {hash}}}, 10s);
  ASSERT_EQ(have.kind, WorkerProcess::Outcome::Kind::Reply);
  EXPECT_EQ(have.reply["missing"], nlohmann::json::array({hash}));
  auto right = w.request({{"op", "put"}, {"hash", hash}, {"kind", "file"}, {"bytes", blob.size()}}, 10s, blob);
  EXPECT_TRUE(right.reply.value("ok", false)) << right.reply.dump();
  have = w.request({{"op", "have"}, {"blobs", {hash}}}, 10s);
  EXPECT_TRUE(have.reply["missing"].empty());
  // A snapshot frame that does not decompress to its hash is refused too.
  auto frame = w.request({{"op", "put"}, {"hash", hash}, {"kind", "store"}, {"bytes", blob.size()}}, 10s, blob);
  EXPECT_FALSE(frame.reply.value("ok", true)) << frame.reply.dump();
  // A request naming what was never shipped fails with the name.
  EvaluateRequest r;
  r.shipped = true;
  r.captures = {"c1"};
  r.baseline_cubin = hash;
  r.variant_cubin = content_hash("never sent");
  nlohmann::json j = r;
  j["op"] = "evaluate";
  auto e = w.request(j, 10s);
  ASSERT_EQ(e.kind, WorkerProcess::Outcome::Kind::Reply);
  EXPECT_EQ(e.reply.value("status", ""), "error");
  EXPECT_NE(e.reply.value("detail", "").find("never shipped"), std::string::npos) << e.reply.dump();
}

}  // namespace
}  // namespace stark::harness
