#include "core/units.h"

#include <gtest/gtest.h>

namespace stark {
namespace {

TEST(Units, ThreeSignificantDigits) {
  EXPECT_EQ(sig3(412.4), "412");
  EXPECT_EQ(sig3(41.24), "41.2");
  EXPECT_EQ(sig3(4.124), "4.12");
  EXPECT_EQ(sig3(0.4124), "0.412");
  EXPECT_EQ(sig3(0), "0");
}

TEST(Units, SharesBandwidthsAndFlopRates) {
  EXPECT_EQ(format_share(0.62), "62%");
  EXPECT_EQ(format_share(0.0042), "0.4%");
  EXPECT_EQ(format_bandwidth(4000), "4.00 TB/s");
  EXPECT_EQ(format_bandwidth(812.4), "812 GB/s");
  EXPECT_EQ(format_flop_rate(41'200), "41.2 TFLOP/s");
  EXPECT_EQ(format_flop_rate(310), "310 GFLOP/s");
  EXPECT_EQ(format_flop_rate(0.5), "0.500 GFLOP/s");
}

}  // namespace
}  // namespace stark
