// Executors: where the GPU workers of an evaluator run. A worker is a command
// line that speaks JSON lines on stdin/stdout (worker/protocol.h), so an
// executor only decides the command and environment of each worker: `local`
// starts one per GPU of this machine, pinned with CUDA_VISIBLE_DEVICES;
// `slurm` starts each under `srun --gres=gpu:1`, inside the allocation the run
// is in (a job step each) or as a job of its own.
#ifndef STARK_HARNESS_EXECUTOR_EXECUTOR_H
#define STARK_HARNESS_EXECUTOR_EXECUTOR_H

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace stark::harness {

/// How to start one worker.
struct WorkerLaunch {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;  // added to the evaluator's environment
  std::string where;                       // for messages: "GPU 1", "srun (job step)"
};

/// Where workers run: here, one per GPU, or in SLURM job steps.
enum class ExecutorKind { Local, Slurm };

/// "local" or "slurm".
const char* to_string(ExecutorKind kind);
/// The kind a name gives; the error names the choices.
Expected<ExecutorKind> parse_executor_kind(std::string_view name);

/// What the user chose (stark optimize --executor ...).
struct ExecutorOptions {
  ExecutorKind kind = ExecutorKind::Local;
  /// The worker's command; "{device}" is replaced by the device number the
  /// worker sees (0 once pinned). Empty: the stark-worker installed with STARK.
  std::vector<std::string> worker;
  std::vector<int> devices;            // local: these GPUs; empty: every visible one
  int workers = 0;                     // how many workers; 0: local one per GPU, slurm the allocation's GPUs (else 1)
  std::string srun = "srun";           // slurm: the srun program
  std::vector<std::string> srun_args;  // slurm: added to every srun (--partition=..., --time=...)
  std::optional<bool> ship;            // send files to workers; default: local no, slurm yes
};

/// Where the GPU workers of one evaluator run.
class Executor {
 public:
  virtual ~Executor() = default;
  virtual std::string name() const = 0;
  /// Workers to start; evaluations are spread over them.
  virtual int size() const = 0;
  /// The command of worker `index` (0 <= index < size()). `wrap` (such as
  /// compute-sanitizer and its options) goes right before the worker program.
  virtual WorkerLaunch launch(int index, const std::vector<std::string>& wrap = {}) const = 0;
  /// True when workers cannot be assumed to read the evaluator's files by
  /// path (another node, no shared filesystem): requests are then shipped.
  virtual bool ships() const = 0;
  /// How long a worker may take to start and greet (a batch queue can be slow).
  virtual std::chrono::seconds start_timeout() const = 0;
};

/// The executor `options.kind` names; the error says what is wrong in one line.
Expected<std::unique_ptr<Executor>> make_executor(const ExecutorOptions& options);

/// The worker command with "{device}" replaced.
std::vector<std::string> worker_command(const std::vector<std::string>& worker, int device);

}  // namespace stark::harness

#endif  // STARK_HARNESS_EXECUTOR_EXECUTOR_H
