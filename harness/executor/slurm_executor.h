// The SLURM executor: every worker is started with `srun --gres=gpu:1`, so
// SLURM picks the node and the GPU and pins the worker to it. Inside an
// allocation (SLURM_JOB_ID set: a run submitted with sbatch, or salloc) each
// worker is a job step of it (`--exact`, so steps run side by side); outside
// one, each worker is a job of its own. Workers may run on other nodes than
// the evaluator, so requests are shipped (worker/protocol.h) by default.
#ifndef STARK_HARNESS_EXECUTOR_SLURM_EXECUTOR_H
#define STARK_HARNESS_EXECUTOR_SLURM_EXECUTOR_H

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/executor/executor.h"

namespace stark::harness {

/// Workers under srun.
class SlurmExecutor final : public Executor {
 public:
  /// `env`: the SLURM_* variables to read (the process's own when empty).
  static Expected<std::unique_ptr<SlurmExecutor>> create(const ExecutorOptions& options,
                                                         std::map<std::string, std::string> env = {});
  std::string name() const override { return "slurm"; }
  int size() const override { return workers_; }
  WorkerLaunch launch(int index, const std::vector<std::string>& wrap = {}) const override;
  bool ships() const override { return options_.ship.value_or(true); }
  // srun waits in the queue until a GPU is free.
  std::chrono::seconds start_timeout() const override { return std::chrono::seconds(900); }
  bool in_allocation() const { return in_allocation_; }

 private:
  SlurmExecutor(ExecutorOptions options, int workers, bool in_allocation)
      : options_(std::move(options)), workers_(workers), in_allocation_(in_allocation) {}
  ExecutorOptions options_;
  int workers_;
  bool in_allocation_;
};

/// The GPUs of the allocation SLURM describes in `env` (SLURM_GPUS_ON_NODE
/// times SLURM_JOB_NUM_NODES, else SLURM_JOB_GPUS' entries); 0 when unknown.
int allocation_gpus(const std::map<std::string, std::string>& env);

}  // namespace stark::harness

#endif  // STARK_HARNESS_EXECUTOR_SLURM_EXECUTOR_H
