#include "harness/evaluator/profile_facts.h"

#include <gtest/gtest.h>

namespace stark::harness {
namespace {

CaptureEvaluation capture(const char* id, uint64_t bytes, double base_us, double var_us, double base_occ,
                          double var_occ) {
  CaptureEvaluation c;
  c.id = id;
  c.bytes = bytes;
  c.baseline_us = Timing{base_us, base_us, base_us, 5};
  c.variant_us = Timing{var_us, var_us, var_us, 5};
  c.baseline_occupancy = base_occ;
  c.variant_occupancy = var_occ;
  return c;
}

TEST(ProfileFactsFill, BandwidthOverAllCapturesAndTheLowestOccupancy) {
  Evaluation e;
  e.gpu = GpuInfo{};
  e.gpu->copy_bandwidth_gbs = 4000;
  e.captures = {capture("a", 3'000'000, 2.0, 1.0, 0.5, 1.0), capture("b", 1'000'000, 2.0, 1.0, 0.25, 0.75)};
  add_measured_facts(e);
  // 4 MB in 4 us = 1000 GB/s (a quarter of the roof); in 2 us, 2000 GB/s.
  ASSERT_TRUE(e.baseline_profile.achieved_gbs);
  EXPECT_DOUBLE_EQ(*e.baseline_profile.achieved_gbs, 1000);
  EXPECT_DOUBLE_EQ(*e.baseline_profile.roof_share, 0.25);
  EXPECT_DOUBLE_EQ(*e.variant_profile.achieved_gbs, 2000);
  EXPECT_DOUBLE_EQ(*e.variant_profile.roof_share, 0.5);
  EXPECT_DOUBLE_EQ(*e.baseline_profile.occupancy, 0.25);
  EXPECT_DOUBLE_EQ(*e.variant_profile.occupancy, 0.75);
}

TEST(ProfileFactsFill, NoBandwidthUnlessEveryCaptureHasItsBytesAndTimes) {
  Evaluation e;
  e.captures = {capture("a", 3'000'000, 2.0, 1.0, 0.5, 1.0), capture("b", 1, 2.0, 1.0, 0.25, 0.75)};
  e.captures[1].bytes.reset();
  add_measured_facts(e);
  EXPECT_FALSE(e.baseline_profile.achieved_gbs);
  EXPECT_FALSE(e.variant_profile.achieved_gbs);
  EXPECT_DOUBLE_EQ(*e.variant_profile.occupancy, 0.75);  // occupancy needs no time
  // Without the GPU's copy bandwidth there is a rate but no share of the roof.
  Evaluation f;
  f.captures = {capture("a", 1000, 1.0, 1.0, 1.0, 1.0)};
  add_measured_facts(f);
  EXPECT_TRUE(f.baseline_profile.achieved_gbs);
  EXPECT_FALSE(f.baseline_profile.roof_share);
}

TEST(ProfileFactsFill, OnlyTheJudgedInstantiationsResources) {
  CubinInfo cubin;
  cubin.kernels = {{"_Z1kIfEvPT_", {}, 8, 32, 0, 1024},
                   {"_Z1kIdEvPT_", {}, 8, 40, 16, 0},
                   {"_Z5otherv", {}, 0, 8, 0, 0},
                   {"_Z1kIiEvPT_", {}, 8, -1, -1, 0}};
  auto got = cubin_resources(cubin, {"_Z1kIfEvPT_", "_Z1kIdEvPT_", "_Z1kIiEvPT_"});
  ASSERT_EQ(got.size(), 2u);  // the third has no register count in its cubin
  EXPECT_EQ(got[0], (KernelResources{"_Z1kIfEvPT_", 32, 0, 1024}));
  EXPECT_EQ(got[1], (KernelResources{"_Z1kIdEvPT_", 40, 16, 0}));
}

// ncu counts instructions, not FLOPs: an FMA is two operations, an add or
// a multiply one; the rate is over the launch ncu timed.
TEST(ProfileFactsFill, TheFlopRateFromNcusCountsAgainstTheFmaPeak) {
  ProfileFacts f;
  add_ncu_reading(f, {{"ffma", 4e6}, {"fadd", 1e6}, {"fmul", 1e6}, {"duration_ns", 1000}, {"dram", 55}, {"sm", 12}},
                  50'000);
  ASSERT_TRUE(f.achieved_gflops);
  EXPECT_DOUBLE_EQ(*f.achieved_gflops, 10'000);  // 10e6 operations in 1 us
  EXPECT_DOUBLE_EQ(*f.fma_share, 0.2);
  EXPECT_EQ(f.ncu, (std::map<std::string, double>{{"dram", 55}, {"sm", 12}}));  // counts are not percentages
  // A reading without the time (an older ncu, a metric it refused) gives no rate, and no share without a peak.
  ProfileFacts partial;
  add_ncu_reading(partial, {{"ffma", 4e6}, {"fadd", 0}, {"fmul", 0}, {"dram", 55}}, 50'000);
  EXPECT_FALSE(partial.achieved_gflops);
  EXPECT_EQ(partial.ncu.size(), 1u);
  ProfileFacts no_peak;
  add_ncu_reading(no_peak, {{"ffma", 0}, {"fadd", 0}, {"fmul", 0}, {"duration_ns", 10}}, 0);
  EXPECT_DOUBLE_EQ(*no_peak.achieved_gflops, 0);  // an integer kernel: no FP32 work, and that is known
  EXPECT_FALSE(no_peak.fma_share);
}

}  // namespace
}  // namespace stark::harness
