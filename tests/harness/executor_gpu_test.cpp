// The local executor on a real GPU (label gpu; skips without one): one
// worker per visible GPU, pinned with CUDA_VISIBLE_DEVICES, and the shipped
// protocol (cubins and captures sent as blobs into the worker's cache) giving
// the verdict the shared-filesystem path gives.
#include <gtest/gtest.h>

#include <cstdio>

#include "harness/evaluator/gpu_evaluator.h"
#include "harness/testing/test_project.h"

namespace stark::harness {
namespace {

const char* kFaster = R"(__global__ void scale(int n, float a, const float* x, float* y) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  for (int k = 0; k < 4; ++k)
    if (i + k < n) y[i + k] = a * x[i + k];
})";

class LocalExecutorGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    p = std::make_unique<testing::TestProject>("executor_gpu_" +
                                               std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    testing::add_annotated_scale(*p);
    options.store = p->root() / "captures";
    options.cache_dir = p->root() / "cache";
    options.nvcc = p->nvcc();
    options.check_all_archs = false;
    options.sanitize = GpuEvaluatorOptions::Sanitize::Never;
    options.worker = {STARK_WORKER_PATH, "--device", "{device}", "--cache", (p->root() / "node-cache").string()};
    options.devices.clear();  // one worker per visible GPU
  }
  Evaluation evaluate(GpuEvaluator& ev) {
    Variant v{"src/scale.cu:scale", kFaster, {}};
    v.launch.grid = {"ceil_div(n, 1024)"};
    return ev.evaluate(*p->manifest().find_kernel("src/scale.cu:scale"), v);
  }
  std::unique_ptr<testing::TestProject> p;
  GpuEvaluatorOptions options;
};

TEST_F(LocalExecutorGpu, OneWorkerPerGpuJudgesByPathAndShipped) {
  GpuEvaluator by_path(p->manifest(), options);
  if (!by_path.gpu()) GTEST_SKIP() << "no GPU: " << by_path.no_gpu_reason();
  EXPECT_EQ(by_path.workers().size(), by_path.workers().executor().size());
  Evaluation a = evaluate(by_path);
  EXPECT_EQ(a.verdict, Verdict::Accepted) << a.reason;

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

// The profile facts of a candidate that could be the result, read and
// measured on the GPU: the cubin's resources, occupancy at the captured
// launch shape, the bandwidth against the memory roof, and ncu's throughput
// where ncu can read the counters here.
TEST_F(LocalExecutorGpu, ACandidateThatCouldWinHasItsProfileFacts) {
  GpuEvaluator ev(p->manifest(), options);
  if (!ev.gpu()) GTEST_SKIP() << "no GPU: " << ev.no_gpu_reason();
  Evaluation e = evaluate(ev);
  ASSERT_EQ(e.verdict, Verdict::Accepted) << e.reason;
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
  if (auto why = ev.ncu_unavailable()) {
    std::printf("ncu: no facts here: %s\n", why->c_str());
  } else if (!(e.speedup && *e.speedup > 1)) {
    std::printf("ncu: not run (%.2fx: not faster, so it cannot be the result)\n", e.speedup.value_or(0));
  } else {
    ASSERT_FALSE(e.variant_profile.ncu.empty()) << "ncu ran but gave nothing";
    for (const auto& [name, pct] : e.variant_profile.ncu) {
      EXPECT_GE(pct, 0) << name;
      EXPECT_LE(pct, 110) << name;
    }
    EXPECT_TRUE(e.baseline_profile.ncu.count("dram"));
  }
}

}  // namespace
}  // namespace stark::harness
