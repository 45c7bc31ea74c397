#include "harness/evaluator/run_once.h"

#include <algorithm>
#include <cstdint>

namespace stark::harness {

RunOnce run_once_request(const EvaluateRequest& req, const std::vector<std::string>& captures,
                         const CaptureIndex* index, double watchdog_seconds) {
  RunOnce out;
  out.capture = captures.front();
  if (index) {
    uint64_t best = UINT64_MAX;
    for (const auto& id : captures)
      if (const Capture* c = index->find(id); c && c->bytes < best) {
        best = c->bytes;
        out.capture = id;
        out.record = *c;
      }
  }
  EvaluateRequest once = req;
  once.captures = {out.capture};
  once.watchdog_seconds = std::max(watchdog_seconds * 20, 120.0);
  out.request = once;
  out.request["op"] = "run_once";
  return out;
}

}  // namespace stark::harness
