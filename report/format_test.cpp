#include "report/format.h"

#include <gtest/gtest.h>

namespace stark::report {
namespace {

TEST(Format, TimesHaveThreeSignificantDigits) {
  EXPECT_EQ(format_time_us(412.0), "412 µs");
  EXPECT_EQ(format_time_us(95.14), "95.1 µs");
  EXPECT_EQ(format_time_us(0.5), "0.500 µs");
  EXPECT_EQ(format_time_us(8630.0), "8.63 ms");
  EXPECT_EQ(format_time_us(2.5e6), "2.50 s");
  EXPECT_EQ(format_time_us(0.0), "0 µs");
  EXPECT_EQ(format_time_us(std::nullopt), "—");
}

TEST(Format, SpeedupsCountsAndCosts) {
  EXPECT_EQ(format_speedup(1.8393), "1.84×");
  EXPECT_EQ(format_speedup(12.598), "12.6×");
  EXPECT_EQ(format_count(980), "980");
  EXPECT_EQ(format_count(41234), "41.2k");
  EXPECT_EQ(format_count(1250000), "1.25M");
  EXPECT_EQ(format_cost(1.234), "$1.23");
  EXPECT_EQ(format_cost(0.0042), "$0.0042");
  EXPECT_EQ(format_cost(std::nullopt), "—");
}

TEST(Format, GpuAndBackend) {
  EXPECT_EQ(format_gpu(GpuInfo{"NVIDIA H200", "90", "580.95.05", "13.0"}),
            "NVIDIA H200 (sm_90, driver 580.95.05, CUDA 13.0)");
  EXPECT_EQ(format_gpu(std::nullopt), "no GPU");
  EXPECT_EQ(format_backend({"builtin", ""}), "builtin");
  EXPECT_EQ(format_backend({"openai", "gpt-5"}), "openai gpt-5");
}

TEST(Format, ChecksThatCouldNotRunAreNeverPassed) {
  std::vector<Check> checks = {{CheckName::Correctness, true, ""},
                               {CheckName::Memcheck, std::nullopt, "no compute-sanitizer"},
                               {CheckName::Racecheck, std::nullopt, "no compute-sanitizer"},
                               {CheckName::Guards, false, "y[10] overwritten"},
                               {CheckName::NoCrash, std::nullopt, "disabled"}};
  auto s = summarize_checks(checks);
  EXPECT_EQ(s.passed.size(), 1u);
  EXPECT_EQ(s.failed.size(), 1u);
  EXPECT_EQ(s.not_run.size(), 3u);
  auto groups = not_run_by_reason(s);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].first, "no compute-sanitizer");
  EXPECT_EQ(groups[0].second, (std::vector<std::string>{"memcheck", "racecheck"}));
  EXPECT_EQ(groups[1].second, std::vector<std::string>{"no_crash"});
}

TEST(Format, TotalsUseTheGeometricMeanOfImprovedKernels) {
  Result r;
  KernelResult a, b, c;
  a.status = b.status = KernelStatus::Improved;
  a.speedup = 2.0;
  b.speedup = 8.0;
  c.status = KernelStatus::NoGain;
  c.speedup = 0.5;
  a.attempts = 3;
  c.attempts = 4;
  a.tokens = {100, 20};
  a.cost_usd = 0.5;
  r.kernels = {a, b, c};
  auto t = run_totals(r);
  EXPECT_EQ(t.kernels, 3);
  EXPECT_EQ(t.improved, 2);
  EXPECT_EQ(t.attempts, 7);
  EXPECT_EQ(t.tokens, 120);
  EXPECT_EQ(t.cost_usd, 0.5);
  ASSERT_TRUE(t.geomean_speedup);
  EXPECT_DOUBLE_EQ(*t.geomean_speedup, 4.0);
  EXPECT_FALSE(run_totals(Result{}).cost_usd);
}

TEST(Format, TheMemoryRoofIsTheCapturesBytesOverTheTimeAgainstTheMeasuredCopyBandwidth) {
  KernelResult k;
  // 2 GB moved: 1 ms at the start, 0.5 ms after; the GPU copies 4 TB/s.
  k.captures = {{"c1", 800.0, 400.0, uint64_t{1'600'000'000}}, {"c2", 200.0, 100.0, uint64_t{400'000'000}}};
  GpuInfo gpu;
  gpu.copy_bandwidth_gbs = 4000;
  auto roof = memory_roof(k, gpu);
  ASSERT_TRUE(roof);
  EXPECT_DOUBLE_EQ(roof->baseline, 0.5);
  EXPECT_DOUBLE_EQ(roof->best, 1.0);
  EXPECT_DOUBLE_EQ(roof->best_gbs, 4000);
  EXPECT_EQ(format_share(roof->baseline), "50%");
  EXPECT_EQ(format_share(0.0042), "0.4%");
  EXPECT_EQ(format_bandwidth(roof->best_gbs), "4.00 TB/s");
  EXPECT_EQ(format_bandwidth(812.4), "812 GB/s");
  // Nothing made up: no bandwidth, a capture without bytes, no captures.
  EXPECT_FALSE(memory_roof(k, std::nullopt));
  EXPECT_FALSE(memory_roof(k, GpuInfo{}));
  k.captures[1].bytes.reset();
  EXPECT_FALSE(memory_roof(k, gpu));
  k.captures.clear();
  EXPECT_FALSE(memory_roof(k, gpu));
}

}  // namespace
}  // namespace stark::report
