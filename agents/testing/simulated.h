// Deterministic stand-ins for the search's collaborators, for tests that
// check the search itself (docs/design.md, "Determinism": measured
// times are noisy, so determinism is tested on simulated verdicts). The real team and evaluator have their own tests.
#ifndef STARK_AGENTS_TESTING_SIMULATED_H
#define STARK_AGENTS_TESTING_SIMULATED_H

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "agents/team.h"
#include "core/evaluator.h"
#include "core/variant_validator.h"

namespace stark::testing {

/// Times a variant by a hash of its source; "BROKEN" in the source is a
/// compile error, "WRONG" a wrong answer. Sleeps a pseudo-random while so
/// that completion order varies between runs.
class SimulatedEvaluator : public Evaluator {
 public:
  explicit SimulatedEvaluator(bool has_gpu = true) : has_gpu_(has_gpu) {}
  Evaluation evaluate(const Kernel& kernel, const Variant& variant) override;
  std::optional<GpuInfo> gpu() const override;
  int calls() const { return calls_; }

 private:
  bool has_gpu_;
  std::atomic<int> calls_{0};
};

/// Accepts everything except sources containing "INVALID".
class SimulatedValidator : public VariantValidator {
 public:
  Expected<void> validate(const Kernel&, const Variant& variant) override;
};

/// A team whose replies are a pure function of what it is shown: plans name
/// the node they expand; code appends a line naming the plan, and every third
/// candidate is BROKEN; debug removes BROKEN. Records what debug was shown.
class ScriptedTeam : public Team {
 public:
  double cost_per_call = 0.0;
  BackendInfo info() const override { return {"scripted", "none"}; }
  RoleReply<Plan> plan(const PlanInput& in) override;
  RoleReply<Variant> code(const CodeInput& in) override;
  RoleReply<Variant> debug(const DebugInput& in) override;
  std::vector<std::string> debug_diagnostics() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> debug_seen_;
};

}  // namespace stark::testing

#endif  // STARK_AGENTS_TESTING_SIMULATED_H
