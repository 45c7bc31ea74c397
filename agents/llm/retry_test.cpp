#include "agents/llm/retry.h"

#include <gtest/gtest.h>

#include <chrono>

namespace stark::llm {
namespace {

using std::chrono::milliseconds;

std::chrono::system_clock::time_point at(time_t t) { return std::chrono::system_clock::from_time_t(t); }

TEST(RetryAfter, DelaySecondsIncludingFractions) {
  auto now = at(0);
  EXPECT_EQ(parse_retry_after("30", now), milliseconds(30'000));
  EXPECT_EQ(parse_retry_after(" 0 ", now), milliseconds(0));
  EXPECT_EQ(parse_retry_after("1.5", now), milliseconds(1'500));
}

TEST(RetryAfter, HttpDateIsMeasuredFromNow) {
  // Sun, 06 Nov 1994 08:49:37 GMT is 784111777 seconds after the epoch.
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", at(784111777 - 120)), milliseconds(120'000));
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", at(784111777 + 5)), milliseconds(0));  // past: now
}

TEST(RetryAfter, GarbageIsNotAWait) {
  auto now = at(0);
  EXPECT_EQ(parse_retry_after("soon", now), std::nullopt);
  EXPECT_EQ(parse_retry_after("-3", now), std::nullopt);
  EXPECT_EQ(parse_retry_after("", now), std::nullopt);
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994", now), std::nullopt);
}

TEST(Backoff, DoublesUpToTheCeilingWithinTheJitterBand) {
  RetryPolicy p;
  p.base_delay = milliseconds(1000);
  p.max_delay = milliseconds(5000);
  p.jitter = 0.25;
  p.seed = 7;
  Backoff b(p);
  const int64_t nominal[] = {1000, 2000, 4000, 5000, 5000};
  for (int retry = 1; retry <= 5; ++retry) {
    int64_t d = b.delay(retry).count();
    EXPECT_GE(d, nominal[retry - 1] * 3 / 4) << "retry " << retry;
    EXPECT_LE(d, nominal[retry - 1] * 5 / 4) << "retry " << retry;
  }
}

TEST(Backoff, SameSeedSameDelaysOtherSeedOtherDelays) {
  RetryPolicy p;
  p.seed = 123;
  Backoff a(p), b(p);
  p.seed = 124;
  Backoff c(p);
  bool any_difference = false;
  for (int retry = 1; retry <= 6; ++retry) {
    auto da = a.delay(retry), db = b.delay(retry), dc = c.delay(retry);
    EXPECT_EQ(da, db);
    any_difference = any_difference || da != dc;
  }
  EXPECT_TRUE(any_difference);
}

TEST(Backoff, NoJitterIsExactlyExponential) {
  RetryPolicy p;
  p.base_delay = milliseconds(250);
  p.max_delay = milliseconds(100'000);
  p.jitter = 0;
  Backoff b(p);
  EXPECT_EQ(b.delay(1), milliseconds(250));
  EXPECT_EQ(b.delay(2), milliseconds(500));
  EXPECT_EQ(b.delay(5), milliseconds(4000));
}

}  // namespace
}  // namespace stark::llm
