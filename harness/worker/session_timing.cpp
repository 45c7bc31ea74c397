// Session::time_launches, the fourth phase of an evaluation: the original
// and the candidate timed in turn (the order alternating), from a cold L2,
// with memory and module variables restored before every launch. Some timed
// launches of the candidate, picked at random and unknowable to it, are read
// back and judged: what was timed is what was checked.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "core/text.h"
#include "harness/worker/session.h"
#include "harness/worker/timing_stats.h"

namespace stark::harness {

/// The four events around a pair of timed launches: the original's start
/// and end, then the candidate's.
class Session::TimingEvents {
 public:
  explicit TimingEvents(const CudaDriver& cu) : cu_(cu) {
    for (auto& e : events_) cu_.cuEventCreate(&e, CU_EVENT_DEFAULT);
  }
  ~TimingEvents() {
    for (auto& e : events_) cu_.cuEventDestroy(e);
  }
  TimingEvents(const TimingEvents&) = delete;
  TimingEvents& operator=(const TimingEvents&) = delete;

  CUevent start(bool variant) const { return events_[variant ? 2 : 0]; }
  CUevent end(bool variant) const { return events_[variant ? 3 : 1]; }
  /// Microseconds between a launch's two events, once the stream has passed them.
  double elapsed_us(bool variant) const {
    float ms = 0;
    cu_.cuEventElapsedTime(&ms, start(variant), end(variant));
    return ms * 1000.0;
  }

 private:
  const CudaDriver& cu_;
  CUevent events_[4] = {};
};

namespace {

std::string spread(const std::string& id, const CaptureEvaluation& ce) {
  auto relative = [](const Timing& t) { return 100 * (t.p90 - t.p10) / std::max(t.median, 1e-9); };
  return fmt::format("{}: n={}, spread (p90-p10)/median {:.1f}% original, {:.1f}% variant", id, ce.baseline_us->n,
                     relative(*ce.baseline_us), relative(*ce.variant_us));
}

}  // namespace

bool Session::time_launches(Job& job) {
  const EvaluateRequest& r = job.r;
  if (!r.timing.enabled) {
    for (CheckName name : {CheckName::Timing, CheckName::TimedOutputs, CheckName::Recheck})
      job.checks.skip(name, "not run: timing disabled");
    return false;
  }
  TimingEvents events(gpu_->cu());
  std::vector<std::string> spreads;
  int spot_checked = 0;
  std::mt19937_64 pick(r.seed ^ 0x5eed5eed5eedull ^ static_cast<uint64_t>(std::random_device{}()));
  for (auto& t : job.targets) {
    if (!time_target(job, t, events, pick, spot_checked)) return false;
    const std::string& id = t.replay->capture().id;
    spreads.push_back(spread(id, job.per_capture[id]));
  }
  job.checks.pass(CheckName::Timing, join(spreads, "; "));
  job.checks.pass(
      CheckName::TimedOutputs,
      fmt::format("{} timed launches of the variant, picked at random, read back and judged", spot_checked));
  return true;
}

bool Session::time_target(Job& job, Target& t, const TimingEvents& events, std::mt19937_64& pick, int& spot_checked) {
  const EvaluateRequest& r = job.r;
  const std::string& id = t.replay->capture().id;
  ReplayInputs in;
  in.poisoned = t.analysis->unread;
  if (auto ok = t.replay->prepare(in, job.base_mod, true); !ok) {  // full restore (canaries too) once
    job.error(ok.error().message);
    return false;
  }
  in.keep = t.analysis->read_only;
  // Iterations where the candidate runs second (even ones), so its memory
  // can be read right after its timed launch.
  std::vector<int> even;
  int first = r.timing.warmup + r.timing.warmup % 2, span = std::max(2, std::min(r.timing.min_runs, 16));
  for (int it = first; it < first + span; it += 2) even.push_back(it);
  std::shuffle(even.begin(), even.end(), pick);
  std::set<int> spots(even.begin(), even.begin() + std::min<size_t>(3, even.size()));
  std::vector<double> tb, tv, medians;
  StopRule rule;
  rule.min_runs = r.timing.min_runs;
  rule.max_runs = r.timing.max_runs;
  rule.stable = r.timing.stable;
  rule.max_seconds = r.timing.max_seconds;
  auto started = std::chrono::steady_clock::now();
  for (int it = 0;; ++it) {
    bool variant_first = it % 2 == 1;
    if (!launch_pair(job, t, in, events, variant_first)) return false;
    if (!variant_first && spots.count(it)) {
      auto got = memory_.lend();
      if (auto read = t.replay->read(job.var_mod, *got); !read) {
        job.error(read.error().message);
        return false;
      }
      record(job.checks, judge(t.analysis->info, t.analysis->before, t.analysis->reference, *got, kPoison),
             CheckName::TimedOutputs, fmt::format("{} (timed launch {})", id, it + 1));
      if (job.checks.failed()) return false;
      ++spot_checked;
    }
    if (it < r.timing.warmup) continue;
    tb.push_back(events.elapsed_us(false));
    tv.push_back(events.elapsed_us(true));
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (rule.done(tb, tv, elapsed, medians) && it >= *spots.rbegin()) break;
  }
  auto& ce = job.per_capture[id];
  ce.baseline_us = summarize(tb);
  ce.variant_us = summarize(tv);
  return true;
}

bool Session::launch_pair(Job& job, Target& t, const ReplayInputs& in, const TimingEvents& events, bool variant_first) {
  GpuContext& gpu = *gpu_;
  const CudaDriver& cu = gpu.cu();
  const std::string& id = t.replay->capture().id;
  for (int k = 0; k < 2; ++k) {
    bool variant = (k == 0) == variant_first;
    CUmodule m = variant ? job.var_mod : job.base_mod;
    if (auto ok = t.replay->prepare(in, m, false); !ok) {
      job.error(ok.error().message);
      return false;
    }
    if (job.r.timing.flush_l2) gpu.flush_l2();
    cu.cuEventRecord(events.start(variant), gpu.stream());
    CUresult e = t.replay->launch(variant ? t.variant : t.baseline, variant ? t.variant_dims : t.baseline_dims, in);
    cu.cuEventRecord(events.end(variant), gpu.stream());
    if (e != CUDA_SUCCESS) {
      Ran ran;
      ran.result = GpuContext::WaitResult::Fault;
      ran.detail = cu.describe(e);
      if (GpuContext::is_sticky(e)) must_exit_ = true;
      job.crashed(ran, id);
      return false;
    }
  }
  auto w = gpu.wait(watchdog(t, job.r));
  if (w.result == GpuContext::WaitResult::Done) return true;
  Ran ran;
  ran.result = w.result;
  ran.detail = w.result == GpuContext::WaitResult::Hang
                   ? fmt::format("still running {:.1f} s after its launch (watchdog)", watchdog(t, job.r))
                   : cu.describe(w.error);
  must_exit_ = true;
  job.crashed(ran, id);
  return false;
}

}  // namespace stark::harness
