#include "harness/executor/executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "harness/executor/local_executor.h"
#include "harness/executor/slurm_executor.h"

namespace stark::harness {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

/// Sets or clears an environment variable for one test, and restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(LocalExecutor, OneWorkerPerGpuEachPinnedToItsOwn) {
  ScopedEnv env("CUDA_VISIBLE_DEVICES", nullptr);
  ExecutorOptions o;
  o.devices.clear();
  o.worker = {"/opt/stark-worker", "--device", "{device}"};
  LocalExecutor e(o, 3);
  ASSERT_EQ(e.size(), 3);
  EXPECT_FALSE(e.ships());
  for (int i = 0; i < 3; ++i) {
    WorkerLaunch l = e.launch(i);
    EXPECT_EQ(l.env.at("CUDA_VISIBLE_DEVICES"), std::to_string(i));
    // Pinned, the worker's only GPU is its device 0.
    EXPECT_EQ(l.argv, (std::vector<std::string>{"/opt/stark-worker", "--device", "0"}));
  }
  WorkerLaunch wrapped = e.launch(2, {"compute-sanitizer", "--tool", "memcheck"});
  EXPECT_EQ(wrapped.argv.front(), "compute-sanitizer");
  EXPECT_EQ(wrapped.argv[3], "/opt/stark-worker");
}

TEST(LocalExecutor, HonoursTheParentsOwnVisibleDevices) {
  ScopedEnv env("CUDA_VISIBLE_DEVICES", "3, GPU-1234");
  ExecutorOptions o;
  LocalExecutor e(o, 2);
  EXPECT_EQ(e.launch(0).env.at("CUDA_VISIBLE_DEVICES"), "3");
  EXPECT_EQ(e.launch(1).env.at("CUDA_VISIBLE_DEVICES"), "GPU-1234");
  o.devices = {1};
  LocalExecutor one(o, 2);
  ASSERT_EQ(one.size(), 1);
  EXPECT_EQ(one.launch(0).env.at("CUDA_VISIBLE_DEVICES"), "GPU-1234");
  EXPECT_EQ(one.launch(0).where, "GPU 1");
}

TEST(LocalExecutor, WithoutAGpuStillOneWorkerToSaySo) {
  ExecutorOptions o;
  EXPECT_EQ(LocalExecutor(o, 0).size(), 1);
  o.workers = 3;  // workers without a GPU (--no-gpu) are counted, not found
  EXPECT_EQ(LocalExecutor(o, 0).size(), 3);
  // More workers than GPUs: round-robin.
  ScopedEnv env("CUDA_VISIBLE_DEVICES", nullptr);
  LocalExecutor shared(o, 2);
  EXPECT_EQ(shared.launch(2).env.at("CUDA_VISIBLE_DEVICES"), "0");
  EXPECT_EQ(shared.launch(1).env.at("CUDA_VISIBLE_DEVICES"), "1");
}

TEST(SlurmExecutor, InsideAnAllocationEveryWorkerIsAStepWithOneGpu) {
  ExecutorOptions o;
  o.kind = ExecutorKind::Slurm;
  o.worker = {"/shared/stark-worker", "--no-gpu"};
  o.srun_args = {"--partition=gpu"};
  auto e =
      SlurmExecutor::create(o, {{"SLURM_JOB_ID", "42"}, {"SLURM_GPUS_ON_NODE", "4"}, {"SLURM_JOB_NUM_NODES", "2"}});
  ASSERT_TRUE(e) << e.error().message;
  EXPECT_TRUE((*e)->in_allocation());
  EXPECT_EQ((*e)->size(), 8);
  EXPECT_TRUE((*e)->ships());
  WorkerLaunch l = (*e)->launch(5, {"compute-sanitizer"});
  EXPECT_EQ(l.argv.front(), "srun");
  EXPECT_TRUE(contains(l.argv, "--gres=gpu:1"));
  EXPECT_TRUE(contains(l.argv, "--exact"));
  EXPECT_TRUE(contains(l.argv, "--partition=gpu"));
  // srun's options, then the wrapper, then the worker: the wrapper runs on the node.
  auto wrap = std::find(l.argv.begin(), l.argv.end(), "compute-sanitizer");
  ASSERT_NE(wrap, l.argv.end());
  EXPECT_EQ(*(wrap + 1), "/shared/stark-worker");
  EXPECT_EQ(l.argv.back(), "--no-gpu");
  EXPECT_TRUE(l.env.empty());  // SLURM pins the step to its GPU
}

TEST(SlurmExecutor, OutsideAnAllocationEachWorkerIsAJob) {
  ExecutorOptions o;
  o.kind = ExecutorKind::Slurm;
  auto e = SlurmExecutor::create(o, {{"SLURM_CONF", "/etc/slurm/slurm.conf"}});
  ASSERT_TRUE(e);
  EXPECT_FALSE((*e)->in_allocation());
  EXPECT_EQ((*e)->size(), 1);
  EXPECT_FALSE(contains((*e)->launch(0).argv, "--exact"));
  o.workers = 3;
  EXPECT_EQ((*SlurmExecutor::create(o, {{"SLURM_JOB_ID", "1"}, {"SLURM_JOB_GPUS", "0,1"}}))->size(), 3);
  o.workers = 0;
  EXPECT_EQ((*SlurmExecutor::create(o, {{"SLURM_JOB_ID", "1"}, {"SLURM_JOB_GPUS", "0,1"}}))->size(), 2);
}

TEST(Executor, ChoicesAndMistakes) {
  ExecutorOptions o;
  auto kind = parse_executor_kind("kubernetes");
  ASSERT_FALSE(kind);
  EXPECT_NE(kind.error().message.find("local, slurm"), std::string::npos);
  EXPECT_EQ(*parse_executor_kind("slurm"), ExecutorKind::Slurm);
  o.kind = ExecutorKind::Slurm;
  o.devices = {0, 1};
  auto e = make_executor(o);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("--workers"), std::string::npos);
  EXPECT_EQ(worker_command({"w", "--device={device}"}, 3), (std::vector<std::string>{"w", "--device=3"}));
}

}  // namespace
}  // namespace stark::harness
