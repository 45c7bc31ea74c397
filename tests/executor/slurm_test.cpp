// The slurm executor end to end on a real single-node SLURM (fixture
// slurm_cluster, tests/executor/slurm_cluster.sh): stark-worker --no-gpu
// processes started by srun --gres=gpu:1 receive shipped cubins and captures
// and check them; a worker killed mid-flight is replaced and its candidate
// re-queued with the same verdict; a search builds the same tree with one
// worker and with three.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <iostream>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <set>

#include "agents/search.h"
#include "agents/testing/simulated.h"
#include "core/process.h"
#include "harness/evaluator/gpu_evaluator.h"
#include "harness/executor/slurm_executor.h"
#include "harness/testing/scale_evaluator_test.h"
#include "harness/testing/worker_loss.h"

namespace stark::harness {
namespace {

/// The scripted team (agents/testing) with its BROKEN candidates made real
/// compile errors for nvcc, and its debug fixes removing them again.
class CompilingTeam : public Team {
 public:
  BackendInfo info() const override { return inner_.info(); }
  RoleReply<Plan> plan(const PlanInput& in) override { return inner_.plan(in); }
  RoleReply<Variant> code(const CodeInput& in) override {
    auto r = inner_.code(in);
    if (r.value && r.value->source.find("BROKEN") != std::string::npos) r.value->source += "\nstark_test_error BROKEN;";
    return r;
  }
  RoleReply<Variant> debug(const DebugInput& in) override {
    auto r = inner_.debug(in);
    if (r.value)
      if (size_t at = r.value->source.find("\nstark_test_error fixed;"); at != std::string::npos)
        r.value->source.erase(at, std::string("\nstark_test_error fixed;").size());
    return r;
  }

 private:
  ::stark::testing::ScriptedTeam inner_;
};

class SlurmTest : public harness::testing::ScaleEvaluatorTest {
 protected:
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    setenv("SLURM_CONF", STARK_SLURM_CONF, 1);
    // Each worker a job of its own, also when ctest itself runs under SLURM;
    // except in the test that is run inside an sbatch job on purpose.
    if (name.rfind("DISABLED_", 0) != 0) unsetenv("SLURM_JOB_ID");
    ScaleEvaluatorTest::SetUp();
    options.executor = ExecutorKind::Slurm;
    options.sm = "90";
    // The node's cache is not the evaluator's folder: nothing is read by path.
    options.worker = {STARK_WORKER_PATH, "--no-gpu", "--cache", (p->root() / "node-cache").string()};
  }
  static Variant variant(int k) { return distinct_variant(k); }
};

TEST_F(SlurmTest, WorkersUnderSrunCheckShippedCandidates) {
  options.workers = 3;
  GpuEvaluator ev(p->manifest(), options);
  EXPECT_FALSE(ev.gpu());
  EXPECT_NE(ev.no_gpu_reason().find("--no-gpu"), std::string::npos) << ev.no_gpu_reason();
  std::mutex m;
  std::condition_variable second;
  std::set<int64_t> pids;
  int dispatched = 0;
  // The first request waits (holding its worker) until a second one was
  // dispatched: the candidates are then really in flight together, however
  // slowly this machine compiles them, and the second must use another worker.
  ev.workers().on_dispatch = [&](int, const WorkerHello& h) {
    std::unique_lock lock(m);
    pids.insert(h.pid);
    if (++dispatched == 1) second.wait_for(lock, std::chrono::seconds(60), [&] { return dispatched >= 2; });
    else second.notify_all();
  };
  std::vector<std::future<Evaluation>> jobs;
  for (int i = 0; i < 6; ++i)
    jobs.push_back(std::async(std::launch::async, [&, i] { return ev.evaluate(kernel(), variant(i)); }));
  for (auto& j : jobs) {
    Evaluation e = j.get();
    EXPECT_TRUE(e.untimed) << e.reason;
    EXPECT_NE(e.reason.find("checked by a worker without a GPU"), std::string::npos) << e.reason;
    bool shipped = false;
    for (const auto& c : e.checks) shipped |= c.name == CheckName::WorkerInputs && c.ok == true;
    EXPECT_TRUE(shipped);
  }
  auto stats = ev.workers().stats();
  ASSERT_EQ(stats.size(), 3u);
  int served = 0, used = 0, blobs = 0;
  for (const auto& s : stats) {
    served += s.served;
    used += s.served > 0;
    blobs += s.blobs_sent;
    EXPECT_EQ(s.starts, 1);
  }
  EXPECT_EQ(served, 6);
  EXPECT_GE(used, 2) << "six concurrent candidates went to one worker";
  // Each worker got the original's cubin and the capture at most once; the
  // node cache they share may have spared the later ones even that.
  EXPECT_LE(blobs, 3 * 3 + 6);
  EXPECT_GE(pids.size(), 2u);
}

TEST_F(SlurmTest, AWorkerKilledMidFlightIsReplacedAndTheVerdictIsTheSame) {
  options.workers = 2;
  Evaluation reference;
  {
    GpuEvaluator ev(p->manifest(), options);
    (void)ev.evaluate(kernel(), variant(7));  // compiled once: both below read the compile cache
    reference = ev.evaluate(kernel(), variant(7));
  }
  GpuEvaluator ev(p->manifest(), options);
  std::atomic<int> dispatched{0};
  ev.workers().on_dispatch = [&](int, const WorkerHello& h) {
    // The worker runs under srun on this (single) node: its pid is ours to kill.
    if (dispatched++ == 0) harness::testing::lose_mid_flight(h.pid);
  };
  Evaluation e = ev.evaluate(kernel(), variant(7));
  EXPECT_EQ(dispatched.load(), 2);
  EXPECT_EQ(e.verdict, reference.verdict) << e.reason;
  EXPECT_EQ(e.reason, reference.reason);
  EXPECT_EQ(e.checks, reference.checks);
  int lost = 0;
  for (const auto& s : ev.workers().stats()) lost += s.lost;
  EXPECT_EQ(lost, 1);
  // The replacement serves the next candidate as usual.
  EXPECT_TRUE(ev.evaluate(kernel(), variant(8)).untimed);
}

// Run only by the next test, inside the allocation of an sbatch job
// (--gtest_also_run_disabled_tests): the workers are steps of the job, one
// per GPU it was given.
TEST_F(SlurmTest, DISABLED_InsideAnAllocation) {
  ASSERT_NE(std::getenv("SLURM_JOB_ID"), nullptr) << "run by AWholeRunSubmittedWithSbatch...";
  GpuEvaluator ev(p->manifest(), options);  // options.workers = 0: the allocation's GPUs
  ASSERT_EQ(ev.workers().size(), 2);
  auto* slurm = dynamic_cast<const SlurmExecutor*>(&ev.workers().executor());
  ASSERT_NE(slurm, nullptr);
  EXPECT_TRUE(slurm->in_allocation());
  auto a = std::async(std::launch::async, [&] { return ev.evaluate(kernel(), variant(21)); });
  auto b = std::async(std::launch::async, [&] { return ev.evaluate(kernel(), variant(22)); });
  for (Evaluation e : {a.get(), b.get()}) EXPECT_TRUE(e.untimed) << e.reason;
  std::cout << "inside allocation " << std::getenv("SLURM_JOB_ID") << ": " << ev.workers().size()
            << " workers as job steps\n";
}

TEST_F(SlurmTest, AWholeRunSubmittedWithSbatchStartsItsWorkersAsStepsOfItsAllocation) {
  std::string out = (p->root() / "job.out").string();
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  ProcessOptions co;
  co.timeout = std::chrono::seconds(180);
  auto r = run_process({"sbatch", "--wait", "--nodes=1", "--ntasks=2", "--gres=gpu:2", "--output=" + out, "--wrap",
                        self + " --gtest_also_run_disabled_tests --gtest_filter=SlurmTest.DISABLED_InsideAnAllocation"},
                       co);
  ASSERT_TRUE(r) << r.error().message;
  std::string log = p->read("job.out");
  EXPECT_TRUE(r->status.success()) << r->status.describe() << "\n" << r->output << "\n" << log;
  EXPECT_NE(log.find("[  PASSED  ] 1 test"), std::string::npos) << log;
  EXPECT_NE(log.find(": 2 workers as job steps"), std::string::npos) << log;
}

TEST_F(SlurmTest, TheSearchTreeDoesNotDependOnTheNumberOfWorkers) {
  std::vector<OrderEvent> order;
  auto search = [&](int workers, bool lose_one) {
    options.workers = workers;
    GpuEvaluator ev(p->manifest(), options);
    std::atomic<int> dispatched{0};
    if (lose_one)
      ev.workers().on_dispatch = [&](int, const WorkerHello& h) {
        if (dispatched++ == 3) harness::testing::lose_mid_flight(h.pid);
      };
    CompilingTeam team;
    ::stark::testing::SimulatedValidator validator;
    std::string text = p->read("src/scale.cu");
    KernelBrief brief;
    brief.kernel = &kernel();
    brief.source = text.substr(kernel().range.begin, kernel().range.end - kernel().range.begin);
    SearchOptions so;
    so.budget = 7;
    so.seed = 11;
    so.parallel = 3;
    // With several in flight the finishing order picks the next node: every
    // search follows the order the first one recorded, so only the workers differ.
    so.state_file = std::filesystem::temp_directory_path() / "stark_slurm_test_state.json";
    std::filesystem::remove(so.state_file);
    so.replay = order;
    SearchOutcome out = run_search(brief, team, ev, validator, so);
    if (auto recorded = recorded_order(so.state_file); order.empty() && recorded) order = *recorded;
    int lost = 0, used = 0;
    for (const auto& s : ev.workers().stats()) {
      lost += s.lost;
      used += s.served > 0;
    }
    // At least the one killed: a re-queued request may meet its dead
    // worker's slot again before the replacement is up.
    if (lose_one) {
      EXPECT_GE(lost, 1);
    }
    std::cerr << workers << " workers: " << used << " served requests\n";
    return std::make_pair(out.tree.to_json(), out.attempts);
  };
  // A first search fills the compile cache, so the two compared read it
  // alike (a compile check says "cached").
  (void)search(1, false);
  auto one = search(1, false);
  auto three = search(3, true);
  EXPECT_EQ(one.second, 7);
  EXPECT_EQ(one.first, three.first);
  // The tree is not trivial: compile errors, their fixes, checked candidates.
  std::set<std::string> statuses;
  for (const auto& n : one.first["nodes"]) statuses.insert(n["status"].get<std::string>());
  EXPECT_TRUE(statuses.count("compile_error")) << one.first.dump(1);
  EXPECT_TRUE(statuses.count("untimed")) << one.first.dump(1);
}

}  // namespace
}  // namespace stark::harness
