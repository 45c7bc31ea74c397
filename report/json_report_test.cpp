#include "report/json_report.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "report/test_data.h"

namespace stark::report {
namespace {

using testing::load_test_input;
using testing::scratch;
using testing::validate_json;

const auto kSchema = std::filesystem::path(STARK_SOURCE_DIR) / "tests/schemas/report.schema.json";

TEST(JsonReport, ValidatesAgainstItsSchema) {
  auto j = render_json(load_test_input(), "stark 1.0");
  auto file = scratch("json_report") / "report.json";
  ASSERT_TRUE(write_json_file(file, j));
  auto v = validate_json(kSchema, file);
  EXPECT_EQ(v.status.code, 0) << v.output;
}

TEST(JsonReport, TheSchemaCatchesABrokenReport) {
  auto j = render_json(load_test_input());
  j["kernels"][0]["status"] = "great";
  j["kernels"][1].erase("best_path");
  auto file = scratch("json_report_broken") / "report.json";
  ASSERT_TRUE(write_json_file(file, j));
  auto v = validate_json(kSchema, file);
  EXPECT_EQ(v.status.code, 1) << v.output;
  EXPECT_NE(v.output.find("kernels/0/status"), std::string::npos) << v.output;
  EXPECT_NE(v.output.find("'best_path' is a required property"), std::string::npos) << v.output;
}

TEST(JsonReport, CarriesWhatTheOtherReportsDerive) {
  auto j = render_json(load_test_input(), "stark 1.0");
  EXPECT_EQ(j["schema"], kReportSchema);
  EXPECT_EQ(j["totals"]["improved"], 3);
  EXPECT_EQ(j["totals"]["attempts"], 59);
  EXPECT_NEAR(j["totals"]["geomean_speedup"].get<double>(), 4.167, 1e-3);
  const auto& saxpy = j["kernels"][0];
  EXPECT_EQ(saxpy["best_node"], 24);
  EXPECT_EQ(saxpy["best_path"].size(), 12u);
  EXPECT_EQ(saxpy["location"]["line"], 4);
  EXPECT_EQ(saxpy["checks"]["not_run"][0]["name"], "memcheck");
  EXPECT_EQ(saxpy["attempts_by_status"]["compile_error"], 3);
  EXPECT_EQ(saxpy["launch"]["grid"], "ceil_div(n, 4096)");
  EXPECT_EQ(saxpy["diff"].get<std::string>().rfind("--- a/src/ops.cu\n", 0), 0u);
  EXPECT_EQ(saxpy["second_look"], false);
  EXPECT_EQ(j["kernels"][1]["second_look"], true);
  EXPECT_TRUE(j["kernels"][4]["diff"].is_null());
  EXPECT_TRUE(j["kernels"][5]["speedup"].is_null());
}

}  // namespace
}  // namespace stark::report
