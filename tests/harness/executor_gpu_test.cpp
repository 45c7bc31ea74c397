// The local executor on a real GPU (label gpu; skips without one): one
// worker per visible GPU, pinned with CUDA_VISIBLE_DEVICES, and the shipped
// protocol (cubins and captures sent as blobs into the worker's cache) giving
// the verdict the shared-filesystem path gives.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdio>

#include "harness/evaluator/gpu_evaluator.h"
#include "harness/testing/scale_evaluator_test.h"

namespace stark::harness {
namespace {

const char* kFaster = R"(__global__ void scale(int n, float a, const float* x, float* y) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  for (int k = 0; k < 4; ++k)
    if (i + k < n) y[i + k] = a * x[i + k];
})";

class LocalExecutorGpu : public testing::ScaleEvaluatorTest {
 protected:
  void SetUp() override {
    ScaleEvaluatorTest::SetUp();
    options.sanitize = GpuEvaluatorOptions::Sanitize::Never;
    options.worker = {STARK_WORKER_PATH, "--device", "{device}", "--cache", (p->root() / "node-cache").string()};
    options.devices.clear();  // one worker per visible GPU
  }
  Evaluation evaluate(GpuEvaluator& ev) {
    Variant v = variant(kFaster);
    v.launch.grid = {"ceil_div(n, 1024)"};
    return ev.evaluate(kernel(), v);
  }
};

TEST_F(LocalExecutorGpu, OneWorkerPerGpuJudgesByPathAndShipped) {
  GpuEvaluator by_path(p->manifest(), options);
  if (!by_path.gpu()) GTEST_SKIP() << "no GPU: " << by_path.no_gpu_reason();
  EXPECT_EQ(by_path.workers().size(), by_path.workers().executor().size());
  Evaluation a = evaluate(by_path);
  EXPECT_EQ(a.verdict, Verdict::Accepted) << a.reason;
  // Where the judge's time went: the wait for a worker, then each of its phases.
  for (const char* phase : {"judge.queued", "judge.load", "judge.correctness", "judge.other_sizes", "judge.fuzz",
                            "judge.timing", "judge.recheck"})
    EXPECT_EQ(a.seconds.count(phase), 1u) << phase;
  // The next candidate is judged on the same fuzzed inputs, which the worker
  // kept with the original's result on them.
  Evaluation again = evaluate(by_path);
  EXPECT_EQ(again.verdict, Verdict::Accepted) << again.reason;
  const Check* fuzz = nullptr;
  for (const auto& c : again.checks)
    if (c.name == CheckName::Fuzz) fuzz = &c;
  ASSERT_NE(fuzz, nullptr);
  EXPECT_EQ(fuzz->ok, true) << fuzz->detail;

  options.ship = true;
  GpuEvaluator shipped(p->manifest(), options);
  ASSERT_TRUE(shipped.gpu());
  Evaluation b = evaluate(shipped);
  EXPECT_EQ(b.verdict, Verdict::Accepted) << b.reason;
  int blobs = 0;
  for (const auto& s : shipped.workers().stats()) blobs += s.blobs_sent;
  EXPECT_GT(blobs, 0);  // the node cache was empty: the cubins and the capture were sent
  // Every check but timing gives the same answer either way.
  ASSERT_EQ(a.checks.size(), b.checks.size());
  for (size_t i = 0; i < a.checks.size(); ++i) {
    EXPECT_EQ(a.checks[i].name, b.checks[i].name);
    EXPECT_EQ(a.checks[i].ok, b.checks[i].ok) << a.checks[i].name << ": " << b.checks[i].detail;
  }
}

// A candidate rejected before the recheck phase may still have written
// outside its buffers: the worker replays the original once more on its own
// copies of the inputs before it judges another (the reply's recheck time),
// and with its memory intact it stays to judge the next candidate.
TEST_F(LocalExecutorGpu, AWrongCandidateIsFollowedByACheckOfTheWorkersMemory) {
  GpuEvaluator ev(p->manifest(), options);
  if (!ev.gpu()) GTEST_SKIP() << "no GPU: " << ev.no_gpu_reason();
  Variant wrong = variant(R"(__global__ void scale(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + 1.0f;
})");
  Evaluation rejected = ev.evaluate(kernel(), wrong);
  EXPECT_EQ(rejected.verdict, Verdict::Rejected) << rejected.reason;
  EXPECT_EQ(rejected.seconds.count("judge.timing"), 0u);
  EXPECT_EQ(rejected.seconds.count("judge.recheck"), 1u);
  int started = 0;
  for (const auto& st : ev.workers().stats()) started += st.starts;
  Evaluation next = evaluate(ev);
  EXPECT_EQ(next.verdict, Verdict::Accepted) << next.reason;
  int started_after = 0;
  for (const auto& st : ev.workers().stats()) started_after += st.starts;
  EXPECT_EQ(started_after, started) << "the worker was restarted after a candidate that left its memory intact";
}

// A grid-stride axpb its author launched on a handful of blocks, 4 Mi
// elements: every thread walks a thousand of them one latency at a time. The
// candidate is the same code on a grid that covers the input, clearly faster,
// so it could be the result and ncu profiles it (and the original).
const char* kFewBlocksAxpb = R"(__global__ void axpb(int n, float a, float b, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i] + b;
})";

// The profile facts of a candidate that could be the result, read and
// measured on the GPU: the cubin's resources, occupancy at the captured
// launch shape, the bandwidth against the memory roof, and, where ncu can
// read the counters here, its throughput and the FP32 FLOP rate against the
// FMA peak the worker measured.
TEST_F(LocalExecutorGpu, ACandidateThatCouldWinHasItsProfileFacts) {
  const int n = 1 << 22;
  p->write("src/axpb.cu", std::string(kFewBlocksAxpb) + "\n");
  Kernel& k =
      p->add_kernel("axpb", "src/axpb.cu", "__global__ void axpb", "_Z4axpbiffPKfPf",
                    {testing::scalar("n", "int", 4), testing::scalar("a", "float", 4), testing::scalar("b", "float", 4),
                     testing::pointer("x", "float", true), testing::pointer("y", "float", false)});
  k.options.args = fmt::format("n={}, a=1.5, b=0.5", n);
  k.options.buffers = "x[n], y[n]";
  k.options.grid = "32";
  k.options.block = "128";
  GpuEvaluator ev(p->manifest(), options);
  if (!ev.gpu()) GTEST_SKIP() << "no GPU: " << ev.no_gpu_reason();
  Variant v{k.id, kFewBlocksAxpb, {}};
  v.launch.grid = {"ceil_div(n, 256)"};
  v.launch.block = {"256"};
  Evaluation e = ev.evaluate(k, v);
  ASSERT_EQ(e.verdict, Verdict::Accepted) << e.reason;
  ASSERT_TRUE(e.gpu);
  std::printf("roofs: copy %.0f GB/s, FP32 FMA %.0f GFLOP/s; speedup %.1fx\n", e.gpu->copy_bandwidth_gbs,
              e.gpu->fma_peak_gflops, e.speedup.value_or(0));
  EXPECT_GT(e.gpu->fma_peak_gflops, 1000) << "every GPU STARK supports does more than 1 TFLOP/s of FP32 FMA";
  ASSERT_TRUE(e.speedup);
  EXPECT_GT(*e.speedup, 2) << "the full grid should leave the handful of blocks far behind";
  for (const ProfileFacts* f : {&e.baseline_profile, &e.variant_profile}) {
    std::printf("profile: %s\n", describe(*f).c_str());
    ASSERT_FALSE(f->resources.empty());
    EXPECT_GT(f->resources[0].registers, 0);
    ASSERT_TRUE(f->occupancy);
    EXPECT_GT(*f->occupancy, 0);
    EXPECT_LE(*f->occupancy, 1);
    ASSERT_TRUE(f->achieved_gbs);
    EXPECT_GT(*f->achieved_gbs, 0);
    ASSERT_TRUE(f->roof_share);
    EXPECT_LT(*f->roof_share, 2) << "beyond twice the measured copy bandwidth: the bytes or the time are wrong";
  }
  // 32 blocks of 128 threads cannot fill an SM each: the calculator says so.
  EXPECT_LT(*e.baseline_profile.occupancy, *e.variant_profile.occupancy + 1e-9);
  if (auto why = ev.ncu_unavailable()) {
    std::printf("ncu: no facts here: %s\n", why->c_str());
    return;
  }
  for (const ProfileFacts* f : {&e.baseline_profile, &e.variant_profile}) {
    ASSERT_FALSE(f->ncu.empty()) << "ncu ran but gave nothing";
    for (const auto& [name, pct] : f->ncu) {
      EXPECT_GE(pct, 0) << name;
      EXPECT_LE(pct, 110) << name;
    }
    EXPECT_TRUE(f->ncu.count("dram"));
    // One FMA per element: 2n operations over the launch ncu timed.
    ASSERT_TRUE(f->achieved_gflops);
    ASSERT_TRUE(f->fma_share);
    EXPECT_GT(*f->achieved_gflops, 0);
    EXPECT_LT(*f->fma_share, 1) << "an axpb cannot reach the FMA peak";
  }
  // The rate over the worker's own median time gives back about 2n operations
  // (ncu timed one launch with its own cache control: loose bounds).
  double ops = *e.variant_profile.achieved_gflops * *e.variant_us * 1e3;
  EXPECT_GT(ops, 0.25 * 2 * n);
  EXPECT_LT(ops, 4.0 * 2 * n);
}

}  // namespace
}  // namespace stark::harness
