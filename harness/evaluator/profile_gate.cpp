// The ncu side of GpuEvaluator's profile facts: one profiled launch of the
// original per kernel, and one of each candidate that could be the result.
// Facts, not a gate: nothing here changes a verdict, and a machine where ncu
// cannot read the counters says so once and goes on without.
#include <fmt/format.h>

#include "harness/evaluator/gpu_evaluator.h"
#include "harness/evaluator/ncu.h"
#include "harness/evaluator/profile_facts.h"
#include "harness/evaluator/run_once.h"
#include "harness/store/capture_store.h"

namespace stark::harness {

std::optional<std::string> GpuEvaluator::ncu_unavailable() const {
  std::lock_guard lock(mutex_);
  return ncu_off_;
}

void GpuEvaluator::add_ncu_facts(const EvaluateRequest& req, const std::vector<std::string>& captures,
                                 const CaptureIndex* index, Evaluation& e) {
  std::string ncu;
  {
    std::lock_guard lock(mutex_);
    if (ncu_off_) return;
    if (ncu_path_.empty()) ncu_path_ = find_ncu(options_.ncu);
    if (ncu_path_.empty()) {
      ncu_off_ = options_.ncu == "off" ? "turned off" : "ncu not found";
      return;
    }
    ncu = ncu_path_;
  }
  // ncu's log stays on the node a worker runs on, as compute-sanitizer's does.
  if (pool_->executor().ships()) return;
  RunOnce once = run_once_request(req, captures, index, options_.watchdog_seconds);
  const Capture* launched = index ? index->find(once.capture) : nullptr;
  if (!launched) return;
  const std::string mangled = launched->mangled;
  WorkerLaunch launch = pool_->executor().launch(0);
  auto profile = [&](const std::string& cubin, const LaunchOverride& override) {
    nlohmann::json request = once.request;
    request["variant_cubin"] = cubin;
    request["launch"] = override;
    return run_ncu(ncu, launch.argv, request, mangled, options_.sanitizer_timeout, options_.cache_dir / "tmp",
                   launch.env);
  };
  std::optional<std::map<std::string, double>> original;
  {
    std::lock_guard lock(mutex_);
    if (auto it = original_ncu_.find(e.kernel); it != original_ncu_.end()) original = it->second;
  }
  if (!original) {
    auto got = profile(req.baseline_cubin, {});
    if (!got) {
      std::lock_guard lock(mutex_);
      ncu_off_ = got.error().message;  // the counters are out of reach here: stop asking
      return;
    }
    original = *got;
    std::lock_guard lock(mutex_);
    original_ncu_[e.kernel] = *got;
  }
  double fma_peak = e.gpu ? e.gpu->fma_peak_gflops : 0;
  add_ncu_reading(e.baseline_profile, *original, fma_peak);
  if (auto got = profile(req.variant_cubin, req.launch)) add_ncu_reading(e.variant_profile, *got, fma_peak);
}

void GpuEvaluator::profile(EvaluationRun& run) {
  // The original's own evaluation (the search's root) and what could be
  // the result; a slower candidate would only cost time.
  bool original_itself = run.original_cubin == run.candidate_cubin;
  bool could_win = run.faster_than_original && run.could_win;
  if (original_itself || could_win) add_ncu_facts(run.request, run.captures, run.capture_index(options_.store), run.e);
}

}  // namespace stark::harness
