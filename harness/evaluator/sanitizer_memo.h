// Remembered compute-sanitizer passes. An instrumented run costs seconds to
// minutes; a candidate evaluated again (a result-cache hit re-verified, a
// variant the search proposes twice) runs the very same cubin on the very
// same capture, so a pass already seen is reused instead of re-run.
#ifndef STARK_HARNESS_EVALUATOR_SANITIZER_MEMO_H
#define STARK_HARNESS_EVALUATOR_SANITIZER_MEMO_H

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/evaluation.h"

namespace stark::harness {

/// Passes of one tool, filed in `dir` under everything the run depended on:
/// the tool, the run_once request (which names content-addressed cubins and
/// the launch override) and the capture's record. Failures are never kept:
/// they run again, so a flaky finding cannot be hidden by a memo.
class SanitizerMemo {
 public:
  explicit SanitizerMemo(std::filesystem::path dir) : dir_(std::move(dir)) {}

  /// The key of one run; the request's "id" (a per-call counter) is ignored.
  static std::string key(CheckName tool, nlohmann::json run_once_request, const nlohmann::json& capture);

  /// The remembered pass, its detail saying it was reused; nullopt if none.
  std::optional<Check> find(CheckName tool, const std::string& key) const;

  /// Keeps `check` if it passed (ok == true); anything else is ignored.
  void remember(const std::string& key, const Check& check) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_SANITIZER_MEMO_H
