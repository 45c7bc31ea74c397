// The SARIF 2.1.0 report: one result per improved kernel at its location,
// with the winner as a fix, so code-scanning views show it on a pull request.
#ifndef STARK_REPORT_SARIF_H
#define STARK_REPORT_SARIF_H

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "report/report_input.h"

namespace stark::report {

/// The rule every STARK result refers to.
inline constexpr const char* kSarifRuleId = "STARK001";

struct SarifOptions {
  std::string tool_version = "0.0.0";  // the stark version
};

/// A SARIF 2.1.0 log (one run). Improved kernels without a manifest location
/// cannot be placed: they become tool notifications instead of results.
nlohmann::json render_sarif(const ReportInput& in, const SarifOptions& options = {});

}  // namespace stark::report

#endif  // STARK_REPORT_SARIF_H
