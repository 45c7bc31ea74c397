// The JSON report (stark.report/1, tests/schemas/report.schema.json): the
// result's figures plus what the other reports derive from it (locations,
// check summary, best path, diff), for scripts and dashboards.
#ifndef STARK_REPORT_JSON_REPORT_H
#define STARK_REPORT_JSON_REPORT_H

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "report/report_input.h"

namespace stark::report {

inline constexpr const char* kReportSchema = "stark.report/1";

/// One object: run facts, totals, one entry per kernel, warnings.
nlohmann::json render_json(const ReportInput& in, const std::string& generator = "STARK");

}  // namespace stark::report

#endif  // STARK_REPORT_JSON_REPORT_H
