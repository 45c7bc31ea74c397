// The compute-sanitizer gate of GpuEvaluator: the instrumented runs of one
// candidate. The policy (which candidates are sanitized, what a finding
// means for the verdict) stays in gpu_evaluator.cpp.
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
  auto sanitized = [&](const char* tool) {
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
  for (const char* tool : {"memcheck", "racecheck"}) runs.push_back(std::async(std::launch::async, sanitized, tool));
  std::vector<Check> results;
  for (auto& r : runs) results.push_back(r.get());
  return results;
}

}  // namespace stark::harness
