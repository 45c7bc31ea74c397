#include "harness/worker/fuzz.h"

#include <string>
#include <cstdint>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "harness/worker/timing_stats.h"

namespace stark::harness {
namespace {

TEST(Fuzz, ScalesFloatsKeepingSignsZerosAndSpecials) {
  std::vector<float> v = {1.0f, -2.0f, 0.0f, INFINITY, 5.0f};
  std::string bytes(reinterpret_cast<const char*>(v.data()), v.size() * 4);
  std::string original = bytes;
  ASSERT_TRUE(fuzz_floats(bytes, {ScalarKind::F32, 1}, 7));
  std::vector<float> out(v.size());
  std::memcpy(out.data(), bytes.data(), bytes.size());
  EXPECT_NE(bytes, original);
  EXPECT_GE(out[0], 0.75f);
  EXPECT_LT(out[0], 1.25f);
  EXPECT_LT(out[1], 0.0f);
  EXPECT_EQ(out[2], 0.0f);
  EXPECT_TRUE(std::isinf(out[3]));
  // Deterministic for a seed, different for another.
  std::string again = original, other = original;
  fuzz_floats(again, {ScalarKind::F32, 1}, 7);
  fuzz_floats(other, {ScalarKind::F32, 1}, 8);
  EXPECT_EQ(again, bytes);
  EXPECT_NE(other, bytes);
}

TEST(Fuzz, NeverTouchesIntegers) {
  std::string bytes("\x01\x00\x00\x00\x02\x00\x00\x00", 8);
  std::string original = bytes;
  EXPECT_FALSE(fuzz_floats(bytes, {ScalarKind::I32, 1}, 7));
  EXPECT_EQ(bytes, original);
}

TEST(Fuzz, RandomDataByType) {
  auto f = random_data(4000, {ScalarKind::F32, 1}, 3);
  std::vector<float> v(1000);
  std::memcpy(v.data(), f.data(), 4000);
  for (float x : v) {
    EXPECT_GE(x, -1.0f);
    EXPECT_LT(x, 1.0f);
  }
  auto i = random_data(400, {ScalarKind::I32, 1}, 3);
  std::vector<int32_t> iv(100);
  std::memcpy(iv.data(), i.data(), 400);
  for (int x : iv) {
    EXPECT_GE(x, 0);
    EXPECT_LT(x, 100);
  }
}

TEST(TimingStats, Summaries) {
  std::vector<double> s = {5, 1, 4, 2, 3};
  Timing t = summarize(s);
  EXPECT_EQ(t.n, 5);
  EXPECT_DOUBLE_EQ(t.median, 3);
  EXPECT_DOUBLE_EQ(t.p10, 1.4);
  EXPECT_DOUBLE_EQ(t.p90, 4.6);
  EXPECT_NEAR(coefficient_of_variation({10, 10, 10}), 0, 1e-12);
  EXPECT_NEAR(coefficient_of_variation({9, 11}), std::sqrt(2.0) / 10, 1e-12);
}

TEST(TimingStats, StopsWhenStableOrOutOfBudget) {
  StopRule rule;
  rule.min_runs = 10;
  rule.batch = 5;
  std::vector<double> prev, a, b;
  for (int i = 0; i < 10; ++i) {
    a.push_back(100);
    b.push_back(50);
  }
  EXPECT_FALSE(rule.done(a, b, 0.1, prev));  // first check: nothing to compare with
  for (int i = 0; i < 5; ++i) {
    a.push_back(100);
    b.push_back(50);
  }
  EXPECT_TRUE(rule.done(a, b, 0.2, prev));  // medians did not move
  std::vector<double> noisy_prev, na, nb;
  for (int i = 0; i < 4; ++i) {
    na.push_back(i);
    nb.push_back(i);
  }
  EXPECT_TRUE(rule.done(na, nb, 10.0, noisy_prev));  // out of time
  rule.max_runs = 4;
  EXPECT_TRUE(rule.done(na, nb, 0.0, noisy_prev));
}

}  // namespace
}  // namespace stark::harness
