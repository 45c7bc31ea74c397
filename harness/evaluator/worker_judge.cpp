// The GPU part of GpuEvaluator::evaluate: one request to the worker pool and
// its reply, read as untrusted data. The verdict's policy stays in
// gpu_evaluator.cpp.
#include <fmt/format.h>

#include "harness/evaluator/gpu_evaluator.h"
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
