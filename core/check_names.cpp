#include "core/check_names.h"

#include "core/enum_names.h"

#include <ostream>

namespace stark {

namespace {

constexpr std::pair<const char*, CheckName> kCheckNames[] = {
    {"baseline_replay", CheckName::BaselineReplay},
    {"launch", CheckName::Launch},
    {"no_crash", CheckName::NoCrash},
    {"correctness", CheckName::Correctness},
    {"inputs_unchanged", CheckName::InputsUnchanged},
    {"guard_canaries", CheckName::Guards},
    {"repeat_stable", CheckName::Repeat},
    {"other_sizes", CheckName::OtherSizes},
    {"fuzzed_inputs", CheckName::Fuzz},
    {"recheck_after_timing", CheckName::Recheck},
    {"timing", CheckName::Timing},
    {"timed_outputs", CheckName::TimedOutputs},
    {"variant_check", CheckName::VariantCheck},
    {"compile", CheckName::Compile},
    {"signature", CheckName::Signature},
    {"restrict_assumption", CheckName::RestrictAssumption},
    {"host_code", CheckName::HostCode},
    {"archs", CheckName::Archs},
    {"memcheck", CheckName::Memcheck},
    {"racecheck", CheckName::Racecheck},
    {"speedup_plausible", CheckName::SpeedupPlausible},
    {"worker_inputs", CheckName::WorkerInputs},
    {"source", CheckName::Source},
    {"cache", CheckName::Cache},
};

}  // namespace

const char* to_string(CheckName name) { return enum_name(name, kCheckNames); }

std::optional<CheckName> check_name_from_string(std::string_view name) { return enum_from_name(name, kCheckNames); }

void to_json(nlohmann::json& j, CheckName value) { j = to_string(value); }
void from_json(const nlohmann::json& j, CheckName& value) { value = parse_enum(j, "check", kCheckNames); }

std::ostream& operator<<(std::ostream& os, CheckName value) { return os << to_string(value); }

}  // namespace stark
