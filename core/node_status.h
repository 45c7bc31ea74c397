// How a node of a kernel's search tree ended, as a closed set: the
// evaluator's verdict on its candidate, or the step before the evaluator
// that stopped it. result.json and the search state spell it as to_string
// does; progress lines and reports show the same words.
#ifndef STARK_CORE_NODE_STATUS_H
#define STARK_CORE_NODE_STATUS_H

#include <iosfwd>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json_fwd.hpp>

namespace stark {

/// One node's outcome; to_string gives its name in JSON ("accepted", "compile_error").
enum class NodeStatus {
  NotEvaluated,    // "not_evaluated": no evaluation yet (a dry run's root)
  Accepted,        // "accepted": correct and timed
  Rejected,        // "rejected": a check failed
  Error,           // "error": the evaluation itself could not finish
  CompileError,    // "compile_error": the candidate did not compile
  Untimed,         // "untimed": compiled and valid, no GPU to check and time it
  Invalid,         // "invalid": the variant check refused the candidate (clang)
  Duplicate,       // "duplicate": the same code and launch as an evaluated node; costs no attempt
  Exhausted,       // "exhausted": the plan or debug role had nothing left; costs no attempt
  PlanFailed,      // "plan_failed": the plan role gave no usable plan
  PlanUngrounded,  // "plan_ungrounded": the plan did not say where in the code, even when asked again
  CodeFailed,      // "code_failed": the code role gave no usable code
  UnfilledSpans,   // "unfilled_spans": the code role left a planned span empty
  DebugFailed,     // "debug_failed": the debug role gave no usable repair
};

const char* to_string(NodeStatus status);
/// The status a JSON name stands for; nullopt for any other name.
std::optional<NodeStatus> node_status_from_string(std::string_view name);
/// JSON: the name; reading any other name throws ("unknown node status 'x'").
void to_json(nlohmann::json& j, NodeStatus value);
void from_json(const nlohmann::json& j, NodeStatus& value);
/// Streams the name (test failures, logs).
std::ostream& operator<<(std::ostream& os, NodeStatus value);

}  // namespace stark

/// fmt prints the name ("{}" of a NodeStatus is to_string of it).
template <>
struct fmt::formatter<stark::NodeStatus> : fmt::formatter<std::string_view> {
  auto format(stark::NodeStatus value, fmt::format_context& ctx) const {
    return fmt::formatter<std::string_view>::format(stark::to_string(value), ctx);
  }
};

#endif  // STARK_CORE_NODE_STATUS_H
