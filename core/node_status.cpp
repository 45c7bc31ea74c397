#include "core/node_status.h"

#include "core/enum_names.h"

#include <ostream>

namespace stark {

namespace {

constexpr std::pair<const char*, NodeStatus> kNodeStatuses[] = {
    {"not_evaluated", NodeStatus::NotEvaluated},
    {"accepted", NodeStatus::Accepted},
    {"rejected", NodeStatus::Rejected},
    {"error", NodeStatus::Error},
    {"compile_error", NodeStatus::CompileError},
    {"untimed", NodeStatus::Untimed},
    {"invalid", NodeStatus::Invalid},
    {"duplicate", NodeStatus::Duplicate},
    {"exhausted", NodeStatus::Exhausted},
    {"plan_failed", NodeStatus::PlanFailed},
    {"plan_ungrounded", NodeStatus::PlanUngrounded},
    {"code_failed", NodeStatus::CodeFailed},
    {"unfilled_spans", NodeStatus::UnfilledSpans},
    {"debug_failed", NodeStatus::DebugFailed},
};

}  // namespace

const char* to_string(NodeStatus status) { return enum_name(status, kNodeStatuses); }

std::optional<NodeStatus> node_status_from_string(std::string_view name) { return enum_from_name(name, kNodeStatuses); }

void to_json(nlohmann::json& j, NodeStatus value) { j = to_string(value); }
void from_json(const nlohmann::json& j, NodeStatus& value) { value = parse_enum(j, "node status", kNodeStatuses); }

std::ostream& operator<<(std::ostream& os, NodeStatus value) { return os << to_string(value); }

}  // namespace stark
