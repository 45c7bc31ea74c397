#include "harness/evaluator/evaluation_run.h"

#include <fmt/format.h>

#include "harness/store/capture_store.h"

namespace stark::harness {

namespace {

// A verdict's reason stays one readable line; the check keeps the whole detail.
std::string clip(const std::string& s, size_t n = 400) { return s.size() <= n ? s : s.substr(0, n) + "..."; }

}  // namespace

EvaluationRun::EvaluationRun(const Kernel& kernel, const Variant& variant) : kernel(kernel), variant(variant) {
  e.kernel = kernel.id;
}

void EvaluationRun::pass(CheckName name, std::string detail) {
  checks_.push_back(Check{name, true, std::move(detail)});
}

void EvaluationRun::not_run(CheckName name, std::string why) {
  checks_.push_back(Check{name, std::nullopt, std::move(why)});
}

void EvaluationRun::add(const std::vector<Check>& checks) {
  checks_.insert(checks_.end(), checks.begin(), checks.end());
  for (const Check& c : checks)
    if (c.ok && !*c.ok) {
      e.verdict = Verdict::Rejected;
      e.reason = fmt::format("{}: {}", c.name, clip(c.detail));
      finish();
      return;
    }
}

void EvaluationRun::reject(CheckName name, std::string detail) {
  e.verdict = Verdict::Rejected;
  e.reason = fmt::format("{}: {}", name, clip(detail));
  checks_.push_back(Check{name, false, std::move(detail)});
  finish();
}

void EvaluationRun::error(std::string reason) {
  e.verdict = Verdict::Error;
  e.reason = std::move(reason);
  finish();
}

void EvaluationRun::finish() {
  e.checks = checks_;
  finished_ = true;
}

void EvaluationRun::end_phase(const char* phase) {
  auto now = std::chrono::steady_clock::now();
  e.seconds[phase] = std::chrono::duration<double>(now - phase_start_).count();
  phase_start_ = now;
}

const CaptureIndex* EvaluationRun::capture_index(const std::filesystem::path& store) {
  if (!index_tried_) {
    index_tried_ = true;
    if (auto opened = CaptureStore::open(store, false))
      if (auto read = opened->read_index()) index_ = std::move(*read);
  }
  return index_ ? &*index_ : nullptr;
}

}  // namespace stark::harness
