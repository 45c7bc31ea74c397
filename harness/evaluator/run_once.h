// The one-launch request of the instrumented runs (compute-sanitizer, ncu):
// the variant launched once on the smallest capture, which keeps a slow,
// instrumented run short.
#ifndef STARK_HARNESS_EVALUATOR_RUN_ONCE_H
#define STARK_HARNESS_EVALUATOR_RUN_ONCE_H

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/store/capture_store.h"
#include "harness/worker/protocol.h"

namespace stark::harness {

struct RunOnce {
  std::string capture;     // the capture it launches
  nlohmann::json record;   // that capture's record (null without the store's index): what the run depends on
  nlohmann::json request;  // the worker's run_once request
};

/// `index`: the store's, for the captures' sizes (null: the first capture).
/// The watchdog is the request's, widened for an instrumented run.
RunOnce run_once_request(const EvaluateRequest& req, const std::vector<std::string>& captures,
                         const CaptureIndex* index, double watchdog_seconds);

}  // namespace stark::harness

#endif  // STARK_HARNESS_EVALUATOR_RUN_ONCE_H
