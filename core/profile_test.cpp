#include "core/profile.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/evaluation.h"

namespace stark {
namespace {

ProfileFacts spilling() {
  ProfileFacts f;
  f.resources = {{"_Z1kIfEvPT_", 32, 688, 0}, {"_Z1kIdEvPT_", 40, 0, 4160}};
  f.occupancy = 0.5;
  f.achieved_gbs = 2100;
  f.roof_share = 0.62;
  f.achieved_gflops = 310;
  f.fma_share = 0.0062;
  f.ncu = {{"dram", 61.2}, {"sm", 12.0}};
  return f;
}

TEST(ProfileFacts, TheWorstOfEachResourceOverTheInstantiations) {
  auto w = spilling().worst();
  ASSERT_TRUE(w);
  EXPECT_EQ(w->registers, 40);
  EXPECT_EQ(w->stack_bytes, 688);
  EXPECT_EQ(w->shared_bytes, 4160);
  EXPECT_EQ(w->function, "");  // no single instantiation has all three
  EXPECT_FALSE(ProfileFacts{}.worst());
}

TEST(ProfileFacts, OneLineSaysEveryFactThereIs) {
  EXPECT_EQ(describe(spilling()),
            "40 registers, 688 B stack (spills or local arrays), 4.1 KiB static shared (the most over 2 "
            "instantiations); occupancy 50%; 2.10 TB/s = 62% of the memory roof; 310 GFLOP/s = 0.6% of the FMA "
            "peak; ncu: dram 61%, sm 12%");
  ProfileFacts lean;
  lean.resources = {{"k", 8, 0, 0}};
  EXPECT_EQ(describe(lean), "8 registers, no stack (no spills)");
  ProfileFacts integer_only;
  integer_only.achieved_gflops = 0;  // ncu counted no FP32 operation: a fact, not a gap
  integer_only.fma_share = 0;
  EXPECT_EQ(describe(integer_only), "no FP32 arithmetic");
  EXPECT_EQ(describe(ProfileFacts{}), "");
}

TEST(ProfileFacts, TravelThroughJsonInAnEvaluation) {
  Evaluation e;
  e.kernel = "a.cu:k";
  e.baseline_profile = spilling();
  e.variant_profile.occupancy = 1.0;
  CaptureEvaluation c;
  c.id = "c1";
  c.baseline_occupancy = 0.25;
  c.variant_occupancy = 0.75;
  e.captures = {c};
  nlohmann::json j = e;
  EXPECT_FALSE(j.contains("variant_profile") && j["variant_profile"].contains("resources"));
  EXPECT_EQ(j.get<Evaluation>(), e);
  // An evaluation without facts writes none (older readers see what they always saw).
  nlohmann::json plain = Evaluation{};
  EXPECT_FALSE(plain.contains("baseline_profile"));
}

// Facts arrive in state files and worker replies, which are untrusted: a
// wrong type is a JSON error the reader reports, never a crash.
TEST(ProfileFacts, AFactOfTheWrongTypeIsAnErrorNotACrash) {
  auto j = nlohmann::json::parse(R"({"resources": [{"registers": "many"}], "occupancy": [1]})");
  EXPECT_THROW(j.get<ProfileFacts>(), nlohmann::json::exception);
}

}  // namespace
}  // namespace stark
