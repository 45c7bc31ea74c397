#include "harness/common/dtype.h"

#include <cstdint>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace stark::harness {
namespace {

TEST(DType, ParsesClangSpellings) {
  EXPECT_EQ(parse_dtype("float"), (DType{ScalarKind::F32, 1}));
  EXPECT_EQ(parse_dtype("const float"), (DType{ScalarKind::F32, 1}));
  EXPECT_EQ(parse_dtype("__half"), (DType{ScalarKind::F16, 1}));
  EXPECT_EQ(parse_dtype("__nv_bfloat16"), (DType{ScalarKind::BF16, 1}));
  EXPECT_EQ(parse_dtype("unsigned int"), (DType{ScalarKind::U32, 1}));
  EXPECT_EQ(parse_dtype("std::int64_t"), (DType{ScalarKind::I64, 1}));
  EXPECT_EQ(parse_dtype("float4"), (DType{ScalarKind::F32, 4}));
  EXPECT_EQ(parse_dtype("uchar4"), (DType{ScalarKind::U8, 4}));
  EXPECT_EQ(parse_dtype("double2"), (DType{ScalarKind::F64, 2}));
  EXPECT_EQ(parse_dtype("struct Particle"), (DType{ScalarKind::Bytes, 1}));
  EXPECT_EQ(parse_dtype("float4").size(), 16);
  EXPECT_EQ(parse_dtype("float4").name(), "f32x4");
  EXPECT_TRUE(parse_dtype("half").is_float());
  EXPECT_TRUE(parse_dtype("bool").is_integer());
  EXPECT_FALSE(parse_dtype("Particle").is_integer());
}

TEST(DType, TolerancesTightenWithPrecision) {
  EXPECT_LT(default_tolerance(ScalarKind::F64).rtol, default_tolerance(ScalarKind::F32).rtol);
  EXPECT_LT(default_tolerance(ScalarKind::F32).rtol, default_tolerance(ScalarKind::F16).rtol);
  EXPECT_LE(default_tolerance(ScalarKind::F16).rtol, default_tolerance(ScalarKind::BF16).rtol);
  EXPECT_EQ(default_tolerance(ScalarKind::I32), (Tolerance{0, 0}));
  // fp32 tolerance is tighter than what computing in half precision costs (~5e-4).
  EXPECT_LT(default_tolerance(ScalarKind::F32).rtol, 5e-4);
}

TEST(DType, HalfConversionsRoundTrip) {
  for (float f : {0.0f, -0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f, 0.333251953125f})
    EXPECT_EQ(half_to_float(float_to_half(f)), f) << f;
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(1e6f), 0x7c00);  // overflow to inf
  EXPECT_TRUE(std::isnan(half_to_float(float_to_half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(half_to_float(float_to_half(1.0f + 1.0f / 4096)), 1.0f);  // ties to even
  EXPECT_EQ(bf16_to_float(float_to_bf16(1.0f)), 1.0f);
  EXPECT_EQ(float_to_bf16(1.0f), 0x3f80);
  EXPECT_NEAR(bf16_to_float(float_to_bf16(3.14159f)), 3.14159f, 0.02f);
}

TEST(DType, LoadStoreLanes) {
  unsigned char buf[32] = {};
  store_lane(buf, ScalarKind::F32, 2, 1.5);
  EXPECT_EQ(load_lane(buf, ScalarKind::F32, 2), 1.5);
  store_lane(buf, ScalarKind::I16, 1, -7);
  EXPECT_EQ(load_lane(buf, ScalarKind::I16, 1), -7);
  store_lane(buf, ScalarKind::F16, 3, 0.5);
  EXPECT_EQ(load_lane(buf, ScalarKind::F16, 3), 0.5);
  store_lane(buf, ScalarKind::U64, 1, 123456789.0);
  EXPECT_EQ(load_lane(buf, ScalarKind::U64, 1), 123456789.0);
}

}  // namespace
}  // namespace stark::harness
