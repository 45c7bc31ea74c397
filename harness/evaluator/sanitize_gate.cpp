// The compute-sanitizer gate of GpuEvaluator: memcheck and racecheck of a
// candidate that can be the result. The search keeps the fastest, so one
// slower than a candidate that already passed the sanitizers can never win,
// and instrumenting it would only cost time.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <future>

#include "harness/evaluator/gpu_evaluator.h"
#include "harness/evaluator/run_once.h"
#include "harness/evaluator/sanitizer.h"
#include "harness/evaluator/sanitizer_memo.h"
#include "harness/store/capture_store.h"

namespace stark::harness {

std::vector<Check> GpuEvaluator::run_sanitizers(const EvaluateRequest& req, const std::vector<std::string>& captures,
                                                const CaptureIndex* index) {
  RunOnce once = run_once_request(req, captures, index, options_.watchdog_seconds);
  const nlohmann::json& once_json = once.request;
  const nlohmann::json& smallest_record = once.record;
  std::string cs = find_compute_sanitizer(options_.compute_sanitizer);
  WorkerLaunch launch = pool_->executor().launch(0);
  SanitizerMemo memo(options_.cache_dir / "sanitized");
  // Both tools at once: each instrumented run is mostly host work, and the
  // candidate waits for the slower one rather than for the sum.
  auto sanitized = [&](CheckName tool) {
    std::string memo_key = SanitizerMemo::key(tool, once_json, smallest_record);
    std::optional<Check> reused = smallest_record.is_null() ? std::nullopt : memo.find(tool, memo_key);
    // compute-sanitizer writes its findings to a log file where it runs:
    // with shipped requests that is another node, which cannot be read back.
    Check c = reused ? *reused
              : pool_->executor().ships()
                  ? Check{tool, std::nullopt,
                          fmt::format("not run: compute-sanitizer is not run on {} workers yet (its log stays on "
                                      "the worker's node)",
                                      pool_->executor().name())}
                  : run_sanitizer(tool, cs, launch.argv, once_json, options_.sanitizer_timeout,
                                  options_.cache_dir / "tmp", launch.env);
    if (!reused && !smallest_record.is_null()) memo.remember(memo_key, c);
    return c;
  };
  std::vector<std::future<Check>> runs;
  for (CheckName tool : {CheckName::Memcheck, CheckName::Racecheck})
    runs.push_back(std::async(std::launch::async, sanitized, tool));
  std::vector<Check> results;
  for (auto& r : runs) results.push_back(r.get());
  return results;
}

void GpuEvaluator::sanitize(EvaluationRun& run) {
  if (options_.sanitize == GpuEvaluatorOptions::Sanitize::Never) return;
  const std::string& kernel = run.kernel.id;
  std::optional<double> fastest_passed;
  {
    std::lock_guard lock(mutex_);
    if (auto it = fastest_sanitized_us_.find(kernel); it != fastest_sanitized_us_.end()) fastest_passed = it->second;
  }
  const std::optional<double>& time = run.e.variant_us;
  run.could_win = !fastest_passed || !time || *time <= *fastest_passed;
  if (options_.sanitize == GpuEvaluatorOptions::Sanitize::Accepted && !(run.faster_than_original && run.could_win)) {
    std::string why = !run.faster_than_original
                          ? "not run: only candidates faster than the original are sanitized"
                          : fmt::format(
                                "not run: slower than {:.3g} us of a candidate that passed it, so it cannot be "
                                "the result",
                                *fastest_passed);
    run.not_run(CheckName::Memcheck, why);
    run.not_run(CheckName::Racecheck, why);
    return;
  }
  std::vector<Check> results = run_sanitizers(run.request, run.captures, run.capture_index(options_.store));
  run.end_phase("sanitize");
  run.add(results);
  if (run.finished()) return;
  // Ran and passed: a check that could not run proves nothing.
  bool both_passed = std::all_of(results.begin(), results.end(), [](const Check& c) { return c.ok == true; });
  if (both_passed && time) {
    std::lock_guard lock(mutex_);
    auto [it, fresh] = fastest_sanitized_us_.emplace(kernel, *time);
    if (!fresh) it->second = std::min(it->second, *time);
  }
}

}  // namespace stark::harness
