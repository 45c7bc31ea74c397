// GpuEvaluator: the Evaluator (core/evaluator.h) that judges candidates on a
// real GPU. It compiles the original and the candidate with the compile
// service, checks the candidate kept the kernel's name and signature, sends
// both to a GPU worker process with the kernel's captures, and runs the final
// gates on a candidate the worker found correct: no host code added, compiles
// for every architecture the target builds, compute-sanitizer memcheck and
// racecheck. Workers run where the executor puts them (harness/executor/:
// one per local GPU, or under srun) and are served by a WorkerPool; a worker
// that hangs is restarted and the verdict says why, one that is lost is
// restarted and its candidate re-queued.
#ifndef STARK_HARNESS_EVALUATOR_GPU_EVALUATOR_H
#define STARK_HARNESS_EVALUATOR_GPU_EVALUATOR_H

#include <cstdint>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <atomic>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/evaluator.h"
#include "core/manifest.h"
#include "harness/compile/compile_service.h"
#include "harness/evaluator/evaluation_run.h"
#include "harness/evaluator/worker_pool.h"
#include "harness/evaluator/worker_process.h"
#include "harness/worker/protocol.h"

namespace stark::harness {

struct CaptureIndex;

struct GpuEvaluatorOptions {
  std::filesystem::path store;      // capture store
  std::filesystem::path cache_dir;  // compiled kernels
  /// Command of one worker; "{device}" is replaced by the device number.
  /// Empty: the stark-worker installed with STARK, on this machine.
  std::vector<std::string> worker;
  std::vector<int> devices = {0};               // local: one worker per device; empty: one per visible GPU
  ExecutorKind executor = ExecutorKind::Local;  // where workers run (harness/executor/executor.h)
  int workers = 0;                              // number of workers (slurm; local without devices); 0: one per GPU
  std::vector<std::string> srun_args;           // slurm: added to every srun
  std::optional<bool> ship;                     // send cubins and captures to workers; default: slurm yes, local no
  int max_losses = 2;                           // workers one candidate may lose before the loss is its verdict
  int compile_jobs = 0;                         // 0: one per core
  std::string nvcc = "nvcc";
  std::optional<std::string> sm;  // architecture to compile for when there is no GPU
  TimingSettings timing;
  int fuzz_rounds = 2;
  uint64_t seed = 1;
  double watchdog_seconds = 10;
  std::chrono::seconds request_timeout{900};
  enum class Sanitize { Never, Accepted, Always };
  // Accepted: compute-sanitizer on candidates that passed everything else, are faster than the
  // original and not slower than one that already passed it (only those can be the result).
  Sanitize sanitize = Sanitize::Accepted;
  std::string compute_sanitizer;  // empty: found on PATH / in the toolkit
  std::chrono::seconds sanitizer_timeout{600};
  /// Nsight Compute for profile facts (ncu.h), run on the original once per
  /// kernel and on each candidate that could be the result: empty: found on
  /// PATH / in the toolkit; "off": never.
  std::string ncu;
  bool host_code_check = true;
  bool check_all_archs = true;
  double flag_speedup = 10.0;  // speedups above this are flagged for a second look
};

class GpuEvaluator final : public Evaluator {
 public:
  GpuEvaluator(Manifest manifest, GpuEvaluatorOptions options);
  ~GpuEvaluator() override;

  Evaluation evaluate(const Kernel& kernel, const Variant& variant) override;
  std::optional<GpuInfo> gpu() const override;

  /// Why gpu() is nullopt, in one line.
  std::string no_gpu_reason() const;

  /// Why no ncu facts come on this machine (not found, turned off, the
  /// counters out of reach), once that is known; nullopt until then.
  std::optional<std::string> ncu_unavailable() const;

  /// The capture ids evaluate() uses for a kernel: its recorded launches, or
  /// inputs made from its annotation (added to the store). The error says how
  /// to give the kernel inputs.
  Expected<std::vector<std::string>> captures_for(const Kernel& kernel);

  /// Workers started so far, over all devices (restarts included).
  int worker_starts() const;

  /// The pool of workers (their statistics; a hook for progress lines).
  WorkerPool& workers() { return *pool_; }

  CompileService& compiler() { return compiler_; }

 private:
  // The gates (the order is kGates, in gpu_evaluator.cpp). Each reads what
  // the ones before it left in the run and finishes the run when it decides.
  using Gate = void (GpuEvaluator::*)(EvaluationRun&);
  static const Gate kGates[];
  void check_launch(EvaluationRun& run);  // compile_gates.cpp
  void compile(EvaluationRun& run);
  void start_final_compiles(EvaluationRun& run);
  void check_signature(EvaluationRun& run);
  void require_gpu(EvaluationRun& run);  // capture_gates.cpp
  void choose_captures(EvaluationRun& run);
  void check_restrict_assumption(EvaluationRun& run);
  void judge_on_gpu(EvaluationRun& run);     // worker_judge.cpp
  void check_host_code(EvaluationRun& run);  // compile_gates.cpp
  void check_archs(EvaluationRun& run);
  void sanitize(EvaluationRun& run);  // sanitize_gate.cpp
  void profile(EvaluationRun& run);   // profile_gate.cpp
  void accept(EvaluationRun& run);    // gpu_evaluator.cpp

  CompileRequest compile_request(const EvaluationRun& run, std::optional<std::string> source, CompileMode mode,
                                 const std::string& arch) const;
  /// What the workers said of a request (worker_judge.cpp).
  struct GpuJudgement {
    EvaluateReply reply;
    std::string lost;           // non-empty: the worker crashed or hung (the candidate's verdict)
    std::string setup_error;    // non-empty: nothing could be asked (no verdict)
    double queued_seconds = 0;  // waiting for a free worker
  };
  /// Sends `req` to a worker and reads its reply; asks again without other
  /// sizes when the original itself failed there (no verdict on the
  /// candidate), and keeps them off for that kernel.
  GpuJudgement judge_on_workers(EvaluateRequest& req);
  /// memcheck and racecheck of the request's variant, run at once on the
  /// smallest of the captures (remembered passes reused): sanitize_gate.cpp.
  /// `index`: the store's, for the captures' sizes (null: the first capture).
  std::vector<Check> run_sanitizers(const EvaluateRequest& req, const std::vector<std::string>& captures,
                                    const CaptureIndex* index);
  /// ncu's throughput metrics for the original (once per kernel) and the
  /// request's variant, into the evaluation's profiles: profile_gate.cpp.
  void add_ncu_facts(const EvaluateRequest& req, const std::vector<std::string>& captures, const CaptureIndex* index,
                     Evaluation& e);

  Manifest manifest_;
  GpuEvaluatorOptions options_;
  CompileService compiler_;
  mutable std::mutex mutex_;
  std::map<std::string, double>
      fastest_sanitized_us_;               // per kernel id: the fastest candidate that passed the sanitizers
  std::set<std::string> other_sizes_off_;  // kernel ids whose original faulted at a derived size
  std::map<std::string, std::map<std::string, double>> original_ncu_;  // per kernel id: the original's ncu metrics
  std::optional<std::string> ncu_off_;  // why ncu gives no facts on this machine, once it is known
  std::string ncu_path_;                // found on the first profile, kept
  std::atomic<int64_t> requests_{0};    // evaluate requests sent: each reply must answer its own
  std::unique_ptr<WorkerPool> pool_;    // null when the executor could not be made (setup_error_)
  std::string setup_error_;
  mutable bool probed_ = false;
  mutable bool no_gpu_workers_ = false;  // workers run without a GPU: they still check what they can
  mutable std::optional<GpuInfo> gpu_;
  mutable std::string no_gpu_;
  std::mutex store_mutex_;
};

/// The kernel's pointer parameters (by their names in the manifest) that
/// the variant's definition declares __restrict__ and the original does
/// not, read from the variant's tokens by position. A parameter spelled
/// with a macro the variant defines counts as declaring it.
std::vector<std::string> restrict_added(const Kernel& kernel, std::string_view variant_source);

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_GPU_EVALUATOR_H
