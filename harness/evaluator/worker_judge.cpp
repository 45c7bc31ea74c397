// The GPU gate of GpuEvaluator: the candidate's request to the worker pool
// and the reply, read as untrusted data. A failed check rejects the
// candidate, a missing one is never taken as passed, and the captures'
// timings make its speedup.
#include <fmt/format.h>

#include <cmath>

#include "harness/evaluator/gpu_evaluator.h"
#include "harness/evaluator/profile_facts.h"
#include "harness/evaluator/shipment.h"

namespace stark::harness {

GpuEvaluator::GpuJudgement GpuEvaluator::judge_on_workers(EvaluateRequest& req) {
  GpuJudgement out;
  for (;;) {
    nlohmann::json request = req;
    request["op"] = "evaluate";
    std::optional<Shipment> shipment;
    if (pool_->executor().ships()) {
      auto s = make_shipment(req);
      if (!s) {
        out.setup_error = s.error().message;
        return out;
      }
      shipment = std::move(*s);
    }
    auto outcome = pool_->submit(request, shipment ? &*shipment : nullptr);
    out.queued_seconds += outcome.queued_seconds;
    using Kind = WorkerProcess::Outcome::Kind;
    if (outcome.kind == Kind::NotStarted) {
      out.setup_error = outcome.detail;
      return out;
    }
    if (outcome.kind == Kind::Crashed || outcome.kind == Kind::TimedOut) {
      out.lost = outcome.kind == Kind::TimedOut ? "hang: " + outcome.detail : outcome.detail;
      return out;
    }
    try {
      out.reply = outcome.reply.get<EvaluateReply>();
    } catch (const std::exception& ex) {
      out.setup_error = fmt::format("the worker's reply is malformed: {}", ex.what());
      return out;
    }
    // The original itself failed at a derived size: that is no verdict on
    // the candidate. Ask again without other sizes, for this kernel from now on.
    if (out.reply.status == ReplyStatus::Error && out.reply.other_sizes_faulted && req.other_sizes) {
      std::lock_guard lock(mutex_);
      other_sizes_off_.insert(req.kernel);
      req.other_sizes = false;
      req.id = ++requests_;
      continue;
    }
    return out;
  }
}

}  // namespace stark::harness

namespace stark::harness {

void GpuEvaluator::judge_on_gpu(EvaluationRun& run) {
  const Kernel& kernel = run.kernel;
  EvaluateRequest& req = run.request;
  req.id = ++requests_;
  req.kernel = kernel.id;
  req.store = std::filesystem::absolute(options_.store).string();
  req.captures = run.captures;
  for (const auto& inst : kernel.instantiations)
    if (run.judged_instantiations.count(inst.mangled))
      req.instantiations[inst.mangled] = param_specs(inst.params.empty() ? kernel.params : inst.params);
  req.baseline_cubin = run.original.output.string();
  req.variant_cubin = run.candidate.output.string();
  req.launch = run.variant.launch;
  req.rtol = kernel.options.rtol;
  req.atol = kernel.options.atol;
  req.fuzz_rounds = options_.fuzz_rounds;
  req.seed = options_.seed;
  req.timing = options_.timing;
  req.watchdog_seconds = options_.watchdog_seconds;
  {
    std::lock_guard lock(mutex_);
    req.other_sizes = !other_sizes_off_.count(kernel.id);
  }

  GpuJudgement judged = judge_on_workers(req);
  if (!judged.setup_error.empty()) return run.error(judged.setup_error);
  if (!judged.lost.empty()) return run.reject(CheckName::NoCrash, judged.lost);
  const EvaluateReply& reply = judged.reply;
  run.end_phase("judge");
  // Where the judge's time went: waiting for a worker, then the worker's phases.
  run.e.seconds["judge.queued"] = judged.queued_seconds;
  for (const auto& [phase, seconds] : reply.seconds)
    if (std::isfinite(seconds) && seconds >= 0) run.e.seconds["judge." + phase] = seconds;
  if (reply.status == ReplyStatus::Error) return run.error(reply.detail);
  run.e.captures = reply.captures;
  add_measured_facts(run.e);
  run.add(reply.checks);
  if (run.finished()) return;
  if (reply.no_gpu || !run.gpu) {
    // A worker without a GPU checked what it could; nothing ran. Which
    // worker it was is left out: the verdict must not depend on it.
    run.e.untimed = true;
    return run.error(
        fmt::format("compiled for sm_{} and checked by a worker without a GPU on {} capture{}; nothing "
                    "was run or timed",
                    run.sm, run.captures.size(), run.captures.size() == 1 ? "" : "s"));
  }
  // A verdict needs every check it rests on, present and passed: a reply
  // that lacks one is not taken as a pass, whatever else it says.
  if (std::string why = incomplete_reply(req, reply); !why.empty())
    return run.reject(CheckName::NoCrash, "the worker's reply cannot be a verdict: " + why);
  // The worker stops before timing when something failed; a reply without
  // failures but with untimed captures is not a verdict.
  double base_us = 0, var_us = 0;
  bool timed = !run.e.captures.empty();
  for (const auto& c : run.e.captures) {
    if (!c.baseline_us || !c.variant_us) timed = false;
    else {
      base_us += c.baseline_us->median;
      var_us += c.variant_us->median;
    }
  }
  if (!timed) return;
  run.e.baseline_us = base_us;
  run.e.variant_us = var_us;
  run.e.speedup = var_us > 0 ? base_us / var_us : 0;
  run.faster_than_original = *run.e.speedup > 1.0;
}

}  // namespace stark::harness
