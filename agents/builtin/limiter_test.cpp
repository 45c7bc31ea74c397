#include "agents/builtin/limiter.h"

#include <gtest/gtest.h>

namespace stark::builtin {
namespace {

ProfileFacts facts(std::optional<double> roof, std::optional<double> occupancy, int registers = 32, int stack = 0) {
  ProfileFacts f;
  f.resources = {{"k", registers, stack, 0}};
  f.roof_share = roof;
  if (roof) f.achieved_gbs = *roof * 4000;
  f.occupancy = occupancy;
  return f;
}

TEST(Limiter, NearTheRoofOnlyFewerBytesHelp) {
  auto d = diagnose(facts(0.84, 0.25, 64, 128));
  EXPECT_EQ(d.limiter, Limiter::Traffic);  // the roof first: nothing else can buy much there
  EXPECT_EQ(d.why, "at 84% of the memory roof");
}

TEST(Limiter, AStackFrameBeforeOccupancy) {
  auto d = diagnose(facts(0.3, 0.25, 255, 688));
  EXPECT_EQ(d.limiter, Limiter::Spills);
  EXPECT_EQ(d.why, "688 bytes of stack per thread at 255 registers");
}

TEST(Limiter, FewWarpsResident) {
  auto d = diagnose(facts(0.3, 0.375, 96));
  EXPECT_EQ(d.limiter, Limiter::Occupancy);
  EXPECT_EQ(d.why, "occupancy 38% at 96 registers");
}

TEST(Limiter, FarFromTheRoofWithWarpsToSpare) {
  auto d = diagnose(facts(0.12, 1.0));
  EXPECT_EQ(d.limiter, Limiter::MemoryAccess);
  EXPECT_EQ(d.why, "at 12% of the memory roof with occupancy 100%");
}

TEST(Limiter, NcuTellsComputeFromMemory) {
  ProfileFacts f = facts(0.1, 1.0);
  f.ncu = {{"sm", 82}, {"dram", 9}};
  EXPECT_EQ(diagnose(f).limiter, Limiter::Compute);
}

TEST(Limiter, NearTheFmaPeakTheArithmeticIsTheLimit) {
  ProfileFacts f = facts(0.3, 1.0);
  f.achieved_gflops = 40'000;
  f.fma_share = 0.7;
  auto d = diagnose(f);
  EXPECT_EQ(d.limiter, Limiter::Compute);
  EXPECT_EQ(d.why, "at 70% of the FMA peak");
  f.roof_share = 0.8;  // nearer the memory roof than the FMA peak: bytes first
  EXPECT_EQ(diagnose(f).limiter, Limiter::Traffic);
}

TEST(Limiter, NothingMeasuredNamesNothing) {
  ProfileFacts registers_only;
  registers_only.resources = {{"k", 32, 0, 0}};  // what a machine without a GPU knows
  EXPECT_EQ(diagnose(registers_only).limiter, Limiter::Unknown);
  EXPECT_EQ(diagnose(ProfileFacts{}).why, "");
}

}  // namespace
}  // namespace stark::builtin
