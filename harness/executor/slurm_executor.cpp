#include "harness/executor/slurm_executor.h"

#include <fmt/format.h>

#include <cstdlib>

#include "core/text.h"

extern char** environ;

namespace stark::harness {

namespace {

std::map<std::string, std::string> slurm_environment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    if (kv.rfind("SLURM_", 0) != 0) continue;
    size_t eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return env;
}

int positive(const std::map<std::string, std::string>& env, const std::string& name) {
  auto it = env.find(name);
  if (it == env.end()) return 0;
  try {
    int v = std::stoi(it->second);
    return v > 0 ? v : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

int allocation_gpus(const std::map<std::string, std::string>& env) {
  if (int per_node = positive(env, "SLURM_GPUS_ON_NODE"))
    return per_node * std::max(positive(env, "SLURM_JOB_NUM_NODES"), 1);
  if (auto it = env.find("SLURM_JOB_GPUS"); it != env.end()) {
    int n = 0;
    for (std::string_view part : split(it->second, ','))
      if (!trim(part).empty()) ++n;
    return n;
  }
  return 0;
}

Expected<std::unique_ptr<SlurmExecutor>> SlurmExecutor::create(const ExecutorOptions& options,
                                                               std::map<std::string, std::string> env) {
  if (env.empty()) env = slurm_environment();
  if (!options.devices.empty())
    return Error{"the slurm executor picks GPUs itself: leave out --devices (ask for a number with --workers)"};
  bool inside = env.count("SLURM_JOB_ID") > 0;
  int workers = options.workers > 0 ? options.workers : inside ? allocation_gpus(env) : 0;
  if (workers <= 0) workers = 1;
  return std::unique_ptr<SlurmExecutor>(new SlurmExecutor(options, workers, inside));
}

WorkerLaunch SlurmExecutor::launch(int index, const std::vector<std::string>& wrap) const {
  WorkerLaunch l;
  l.argv = {options_.srun,
            "--nodes=1",
            "--ntasks=1",
            "--gres=gpu:1",
            "--quiet",
            "--kill-on-bad-exit=1",
            fmt::format("--job-name=stark-worker-{}", index)};
  // A step of the allocation takes only what it asks for, so the workers'
  // steps run side by side instead of one after the other.
  if (in_allocation_) l.argv.push_back("--exact");
  l.argv.insert(l.argv.end(), options_.srun_args.begin(), options_.srun_args.end());
  l.argv.insert(l.argv.end(), wrap.begin(), wrap.end());
  auto worker = worker_command(options_.worker, 0);  // SLURM pins the step to its GPU: device 0
  l.argv.insert(l.argv.end(), worker.begin(), worker.end());
  l.where = in_allocation_ ? "srun (a step of this allocation)" : "srun (a job of its own)";
  return l;
}

}  // namespace stark::harness
