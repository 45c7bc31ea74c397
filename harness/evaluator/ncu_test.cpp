// The ncu side of the profile facts: parsing ncu's CSV (as ncu writes it to
// its --log-file: its own ==PROF== lines around one row per metric), and
// run_ncu against a stand-in ncu (a script that records its arguments,
// writes a report to the log file it was given and runs the worker command).
// The real ncu runs in the GPU suite where the machine lets it read counters.
#include "harness/evaluator/ncu.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/file_io.h"
#include "tests/support/stand_in_wrapper.h"

namespace stark::harness {
namespace {

namespace fs = std::filesystem;

// The layout ncu 2025 wrote on the H100 machine (the metrics and the
// warning as seen there; the process is the worker).
const std::string kReport =
    "==WARNING== Note: Running with unmodified GPU clocks. If not controlled otherwise, profiling results may be "
    "inconsistent.\n"
    "==PROF== Connected to process 4242 (/opt/stark/stark-worker)\n"
    "==PROF== Profiling \"_Z5scalePfif\": 0%....50%....100% - 3 passes\n"
    "==PROF== Disconnected from process 4242\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
    "\"0\",\"4242\",\"stark-worker\",\"127.0.0.1\",\"_Z5scalePfif\",\"1\",\"13\",\"(256, 1, 1)\",\"(65536, 1, 1)\","
    "\"0\",\"9.0\",\"Command line profiler metrics\",\"dram__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\","
    "\"91.37\"\n"
    "\"0\",\"4242\",\"stark-worker\",\"127.0.0.1\",\"_Z5scalePfif\",\"1\",\"13\",\"(256, 1, 1)\",\"(65536, 1, 1)\","
    "\"0\",\"9.0\",\"Command line profiler metrics\","
    "\"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"91.37\"\n"
    "\"0\",\"4242\",\"stark-worker\",\"127.0.0.1\",\"_Z5scalePfif\",\"1\",\"13\",\"(256, 1, 1)\",\"(65536, 1, 1)\","
    "\"0\",\"9.0\",\"Command line profiler metrics\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\","
    "\"1,012.5\"\n"
    "\"1\",\"4242\",\"stark-worker\",\"127.0.0.1\",\"_Z5scalePfif\",\"1\",\"13\",\"(256, 1, 1)\",\"(65536, 1, 1)\","
    "\"0\",\"9.0\",\"Command line profiler metrics\",\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\","
    "\"3\"\n";

TEST(NcuCsv, TheFirstLaunchsMetricsByShortName) {
  auto m = parse_ncu_csv(kReport);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_DOUBLE_EQ(m->at("dram"), 91.37);
  EXPECT_DOUBLE_EQ(m->at("memory"), 91.37);
  EXPECT_DOUBLE_EQ(m->at("sm"), 1012.5);  // digits grouped; the second launch (ID 1) is not read
  EXPECT_EQ(m->size(), 3u);
}

TEST(NcuCsv, NoTableOrNoKernelSaysSo) {
  auto none = parse_ncu_csv(
      "==PROF== Connected to process 1\n==ERROR== ERR_NVGPUCTRPERM - The user does not have "
      "permission to access NVIDIA GPU Performance Counters\n");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "ncu printed no metrics table");
  auto header_only = parse_ncu_csv(kReport.substr(0, kReport.find("\"0\",")));
  ASSERT_FALSE(header_only);
  EXPECT_NE(header_only.error().message.find("none of the metrics"), std::string::npos);
  // Quoted commas and doubled quotes stay inside their field.
  auto odd = parse_ncu_csv(
      "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n"
      "\"0\",\"f<a, \"\"b\"\">\",\"dram__throughput.avg.pct_of_peak_sustained_elapsed\",\"7\"\n");
  ASSERT_TRUE(odd) << odd.error().message;
  EXPECT_DOUBLE_EQ(odd->at("dram"), 7);
}

// ncu scales a value to its size and says so in the unit column; the
// FLOP rate needs counts as counts and the time in nanoseconds.
TEST(NcuCsv, ScaledCountsAndTimesComeBackInBaseUnits) {
  std::string table = "\"ID\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  auto row = [&](const char* metric, const char* unit, const char* value) {
    table += fmt::format("\"0\",\"{}\",\"{}\",\"{}\"\n", metric, unit, value);
  };
  row("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "Minst", "8.39");
  row("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "inst", "1,024");
  row("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", "Kinst", "2");
  row("gpu__time_duration.sum", "usecond", "12.5");
  row("dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", "40");
  auto m = parse_ncu_csv(table);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_DOUBLE_EQ(m->at("ffma"), 8.39e6);
  EXPECT_DOUBLE_EQ(m->at("fadd"), 1024);
  EXPECT_DOUBLE_EQ(m->at("fmul"), 2000);
  EXPECT_DOUBLE_EQ(m->at("duration_ns"), 12500);
  EXPECT_DOUBLE_EQ(m->at("dram"), 40);  // a percentage has no prefix to undo
  for (auto [unit, ns] : {std::pair{"nsecond", 7.0}, {"msecond", 7e6}, {"second", 7e9}}) {
    auto t =
        parse_ncu_csv(fmt::format("\"ID\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                                  "\"0\",\"gpu__time_duration.sum\",\"{}\",\"7\"\n",
                                  unit));
    ASSERT_TRUE(t) << unit;
    EXPECT_DOUBLE_EQ(t->at("duration_ns"), ns) << unit;
  }
}

class NcuRun : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(write_file_atomic(dir / "report.csv", kReport)); }
  /// The stand-in ncu: records its arguments, copies `report` to its --log-file, runs the worker.
  std::string stand_in(const std::string& report) {
    ncu.set_before_exec("cat '" + report + "' > \"$log\"");
    return ncu.path();
  }
  std::vector<std::string> args() const { return ncu.args(); }
  stark::testing::StandInWrapper ncu{"ncu"};
  const fs::path& dir = ncu.dir();
};

const std::vector<std::string> kWorker = {"/bin/sh", "-c", "read l; printf '{\"status\":\"ok\"}\\n'; read l"};

TEST_F(NcuRun, ProfilesOneLaunchOfTheKernelWithTheClocksLeftAlone) {
  auto m = run_ncu(stand_in((dir / "report.csv").string()), kWorker, {{"op", "run_once"}}, "_Z5scalePfif",
                   std::chrono::seconds(20), dir / "tmp");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_DOUBLE_EQ(m->at("dram"), 91.37);
  auto a = args();
  auto after = [&](const std::string& flag) {
    auto at = std::find(a.begin(), a.end(), flag);
    return at == a.end() || at + 1 == a.end() ? std::string() : *(at + 1);
  };
  EXPECT_EQ(after("--clock-control"), "none");
  EXPECT_EQ(after("--kernel-name"), "_Z5scalePfif");
  EXPECT_EQ(after("--kernel-name-base"), "mangled");
  EXPECT_EQ(after("--launch-count"), "1");
  EXPECT_NE(after("--metrics").find("dram__throughput.avg.pct_of_peak_sustained_elapsed"), std::string::npos);
  EXPECT_LT(std::find(a.begin(), a.end(), "--log-file") - a.begin(),
            std::find(a.begin(), a.end(), "/bin/sh") - a.begin());
  EXPECT_FALSE(fs::exists(dir / "tmp") && !fs::is_empty(dir / "tmp")) << "the report is removed once read";
}

TEST_F(NcuRun, CountersOutOfReachAreAnErrorWithNcusOwnWords) {
  ASSERT_TRUE(write_file_atomic(dir / "denied.csv",
                                "==WARNING== Note: Running with unmodified GPU clocks.\n"
                                "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
                                "Performance Counters on the target device 0.\n"));
  auto m = run_ncu(stand_in((dir / "denied.csv").string()), kWorker, {{"op", "run_once"}}, "_Z5scalePfif",
                   std::chrono::seconds(20), dir / "tmp");
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("ERR_NVGPUCTRPERM"), std::string::npos) << m.error().message;
  EXPECT_EQ(find_ncu("off"), "");
  EXPECT_EQ(find_ncu((dir / "no-such-ncu").string()), "");
}

}  // namespace
}  // namespace stark::harness
