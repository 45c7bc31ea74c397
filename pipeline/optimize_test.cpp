#include "pipeline/optimize.h"

#include <gtest/gtest.h>

#include "agents/testing/simulated.h"
#include "core/file_io.h"
#include "core/hash.h"
#include "pipeline/kernel_brief.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

const char* kSource =
    "#include <cuda_runtime.h>\n"
    "__global__ void saxpy(int n, float a, const float* x, float* y) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "__global__ void scale(int n, float* y) { y[0] = n; }\n"
    "void run(int n, float a, const float* x, float* y) { saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y); }\n";

struct Project {
  fs::path root = fs::temp_directory_path() / "stark_optimize_test";
  Manifest manifest;
  Project() {
    fs::remove_all(root);
    EXPECT_TRUE(write_file_atomic(root / "src/ops.cu", kSource));
    manifest.source_root = root.string();
    manifest.files["src/ops.cu"] = {content_hash(kSource)};
    std::string text = kSource;
    for (const char* name : {"saxpy", "scale"}) {
      Kernel k;
      k.id = std::string("src/ops.cu:") + name;
      k.name = k.qualified_name = name;
      k.file = "src/ops.cu";
      size_t begin = text.find(std::string("__global__ void ") + name);
      size_t end = text.find("}\n", begin) + 1;
      k.range = {static_cast<int64_t>(begin), static_cast<int64_t>(end)};
      k.body = {static_cast<int64_t>(text.find('{', begin)), static_cast<int64_t>(end)};
      manifest.kernels.push_back(k);
    }
    Launch l;
    l.file = "src/ops.cu";
    l.line = 7;
    l.grid = "(n + 255) / 256";
    l.block = "256";
    l.args = {"n", "a", "x", "y"};
    l.caller = "run";
    manifest.kernels[0].launches.push_back(l);
  }
};

struct Services {
  testing::SimulatedEvaluator evaluator;
  testing::SimulatedValidator validator;
  testing::ScriptedTeam team;
  explicit Services(bool gpu = true) : evaluator(gpu) {}
};

OptimizeOptions options(const Project& p, int budget = 8) {
  OptimizeOptions o;
  o.out_dir = p.root / "result";
  o.manifest_path = (p.root / "manifest.json").string();
  o.budget = budget;
  o.seed = 5;
  return o;
}

TEST(Optimize, WritesAResultForEveryKernel) {
  Project p;
  p.manifest.kernels[1].options.skip = true;
  Services s;
  std::vector<std::string> attempts;
  OptimizeHooks hooks;
  hooks.attempt = [&](const Kernel& k, const SearchNode& n) { attempts.push_back(k.id + "#" + std::to_string(n.id)); };
  auto r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, options(p), hooks);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->kernels.size(), 2u);
  const KernelResult& saxpy = r->kernels[0];
  EXPECT_EQ(saxpy.attempts, 8);
  EXPECT_EQ(saxpy.tree.size(), 9u);
  EXPECT_EQ(attempts.size(), 8u);
  EXPECT_TRUE(saxpy.status == KernelStatus::Improved || saxpy.status == KernelStatus::NoGain);
  if (saxpy.status == KernelStatus::Improved) {
    ASSERT_TRUE(saxpy.best);
    EXPECT_GE(*saxpy.speedup, 1.02);
    EXPECT_FALSE(saxpy.strategies.empty());
  }
  EXPECT_EQ(r->kernels[1].status, KernelStatus::Skipped);
  EXPECT_EQ(r->backend.name, "scripted");
  auto loaded = load_result((p.root / "result").string());
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(*loaded, *r);
}

TEST(Optimize, BriefShowsLaunchSites) {
  Project p;
  auto b = make_brief(p.manifest, p.manifest.kernels[0], {"n=1048576"}, std::nullopt);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->launch_sites.at(0), "src/ops.cu:7 in run(): saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y)");
  EXPECT_EQ(b->source.rfind("__global__ void saxpy", 0), 0u);
}

TEST(Optimize, WithoutAGpuKernelsAreUntimed) {
  Project p;
  Services s(/*gpu=*/false);
  auto r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, options(p, 3));
  ASSERT_TRUE(r);
  for (const auto& k : r->kernels) {
    EXPECT_EQ(k.status, KernelStatus::Untimed) << k.id;
    EXPECT_EQ(k.attempts, 3);
  }
  EXPECT_FALSE(r->gpu);
}

TEST(Optimize, AChangedSourceFailsThatKernelOnly) {
  Project p;
  p.manifest.files["src/ops.cu"].hash = "xxh64:0000000000000000";
  Services s;
  auto r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, options(p, 2));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->kernels[0].status, KernelStatus::Failed);
  EXPECT_NE(r->kernels[0].checks.at(0).detail.find("changed since it was scanned"), std::string::npos);
}

TEST(Optimize, UnknownKernelIsAnError) {
  Project p;
  Services s;
  OptimizeOptions o = options(p);
  o.kernels = {"src/ops.cu:nope"};
  auto r = run_optimize(p.manifest, s.evaluator, s.validator, s.team, nullptr, o);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no kernel 'src/ops.cu:nope'"), std::string::npos);
}

TEST(Optimize, ASecondRunResumesTheSavedSearch) {
  Project p;
  Services first, second;
  auto a = run_optimize(p.manifest, first.evaluator, first.validator, first.team, nullptr, options(p, 6));
  ASSERT_TRUE(a);
  int calls = first.evaluator.calls();
  auto b = run_optimize(p.manifest, second.evaluator, second.validator, second.team, nullptr, options(p, 6));
  ASSERT_TRUE(b);
  EXPECT_EQ(second.evaluator.calls(), 0) << "a finished search is not redone (first run made " << calls << ")";
  EXPECT_EQ(a->kernels[0].tree, b->kernels[0].tree);
}

}  // namespace
}  // namespace stark
