// EvaluationRun: one candidate on its way through GpuEvaluator's gates
// (gpu_evaluator.cpp lists them in order). Each gate reads what the gates
// before it found and adds its own; a gate that decides the evaluation (a
// rejection, an error, nothing more that can run) finishes the run and no
// later gate runs.
#ifndef STARK_HARNESS_EVALUATOR_EVALUATION_RUN_H
#define STARK_HARNESS_EVALUATOR_EVALUATION_RUN_H

#include <chrono>
#include <filesystem>
#include <future>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/evaluation.h"
#include "core/expected.h"
#include "core/manifest.h"
#include "core/variant.h"
#include "harness/common/cubin_info.h"
#include "harness/compile/compile_service.h"
#include "harness/store/capture.h"
#include "harness/worker/protocol.h"

namespace stark::harness {

/// A compile the final gates need, started early so that it runs while the
/// GPU judges the candidate.
using PendingCompile = std::future<Expected<CompileResult>>;

class EvaluationRun {
 public:
  EvaluationRun(const Kernel& kernel, const Variant& variant);

  const Kernel& kernel;
  const Variant& variant;
  /// The verdict as far as the gates got; checks() go into it when it ends.
  Evaluation e;

  /// True once a gate decided the evaluation.
  bool finished() const { return finished_; }
  /// A guard that ran and passed (detail: what it saw).
  void pass(CheckName name, std::string detail = "");
  /// A guard that could not run: a report shows it, never as passed.
  void not_run(CheckName name, std::string why);
  /// Adds checks from elsewhere (the worker's); a failed one rejects.
  void add(const std::vector<Check>& checks);
  /// The candidate failed guard `name`: the verdict is Rejected.
  void reject(CheckName name, std::string detail);
  /// Nothing about the candidate could be decided: the verdict is Error.
  void error(std::string reason);
  /// The evaluation ends here with the verdict and reason already in e.
  void finish();
  const std::vector<Check>& checks() const { return checks_; }
  /// Records the wall time since the previous phase ended under `phase`.
  void end_phase(const char* phase);

  // What the gates found, in the order they find it.
  std::string sm;                  // the architecture judged ("90")
  std::optional<GpuInfo> gpu;      // nullopt: no GPU to run on
  CompileResult original;          // the original's cubin
  CompileResult candidate;         // the variant's cubin
  PendingCompile original_object;  // host objects for the host-code gate
  PendingCompile candidate_object;
  std::vector<std::pair<std::string, PendingCompile>> other_archs;  // the variant for each other architecture
  std::string original_cubin;                                       // the cubins' bytes
  std::string candidate_cubin;
  std::optional<CubinInfo> candidate_info;
  std::set<std::string> judged_instantiations;  // mangled names the original's cubin holds
  std::vector<std::string> captures;            // the capture ids it is judged on
  EvaluateRequest request;                      // what the worker was asked
  bool faster_than_original = false;            // timed and faster (set by the GPU judgement)
  bool could_win = true;                        // not slower than a candidate that passed the sanitizers

  /// The capture store's index, read at most once (it does not change
  /// after the captures are chosen); null when it cannot be read.
  const CaptureIndex* capture_index(const std::filesystem::path& store);

 private:
  std::vector<Check> checks_;
  bool finished_ = false;
  std::chrono::steady_clock::time_point phase_start_ = std::chrono::steady_clock::now();
  std::optional<CaptureIndex> index_;
  bool index_tried_ = false;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_EVALUATION_RUN_H
