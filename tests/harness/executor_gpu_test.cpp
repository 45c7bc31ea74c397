// The local executor on a real GPU (label gpu; skips without one): one
// worker per visible GPU, pinned with CUDA_VISIBLE_DEVICES, and the shipped
// protocol (cubins and captures sent as blobs into the worker's cache) giving
// the verdict the shared-filesystem path gives.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace stark::harness
