#include "harness/worker/compare.h"

#include <string>
#include <cstdint>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace stark::harness {
namespace {

template <typename T>
std::string bytes(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

const DType f32{ScalarKind::F32, 1};
const DType i32{ScalarKind::I32, 1};

TEST(Compare, IdenticalPasses) {
  std::vector<float> a = {1, 2, 3};
  auto r = compare_buffer(bytes(a), bytes(a), f32, default_tolerance(ScalarKind::F32));
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.elements, 3u);
  EXPECT_EQ(r.mismatches, 0u);
}

TEST(Compare, Float32ReorderingPassesHalfPrecisionFails) {
  // A different summation order changes the last bits; computing in half precision costs ~1e-3.
  std::vector<float> ref, reordered, halved;
  for (int i = 0; i < 1000; ++i) {
    float v = std::sin(i * 0.37f) * 10;
    ref.push_back(v);
    reordered.push_back(std::nextafter(std::nextafter(v, 1e9f), 1e9f));
    halved.push_back(v * (1 + 6e-4f * ((i % 3) - 1)));
  }
  EXPECT_TRUE(compare_buffer(bytes(ref), bytes(reordered), f32, default_tolerance(ScalarKind::F32)).ok);
  auto r = compare_buffer(bytes(ref), bytes(halved), f32, default_tolerance(ScalarKind::F32));
  EXPECT_FALSE(r.ok);
  EXPECT_GT(r.max_rel_err, 1e-4);
  EXPECT_LT(r.max_rel_err, 1e-3);
  // A looser per-kernel tolerance (annotation rtol) accepts it.
  EXPECT_TRUE(compare_buffer(bytes(ref), bytes(halved), f32, {1e-3, 0}).ok);
}

TEST(Compare, NearZeroJudgedAtBufferScale) {
  // Cancellation: an element near zero in a buffer of large values.
  std::vector<float> ref = {1000, -1000, 1e-6f, 500};
  std::vector<float> got = {1000, -1000, 2e-3f, 500};
  EXPECT_TRUE(compare_buffer(bytes(ref), bytes(got), f32, default_tolerance(ScalarKind::F32)).ok);
  got[2] = 1.0f;  // far beyond 1e-4 of the buffer's scale (~800)
  EXPECT_FALSE(compare_buffer(bytes(ref), bytes(got), f32, default_tolerance(ScalarKind::F32)).ok);
}

TEST(Compare, NansAndInfinities) {
  float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(
      compare_buffer(bytes(std::vector<float>{nan, inf}), bytes(std::vector<float>{-nan, inf}), f32, {1e-4, 0}).ok);
  EXPECT_FALSE(compare_buffer(bytes(std::vector<float>{1, 2}), bytes(std::vector<float>{1, nan}), f32, {1, 1}).ok);
  EXPECT_FALSE(compare_buffer(bytes(std::vector<float>{nan}), bytes(std::vector<float>{1}), f32, {1, 1}).ok);
  EXPECT_FALSE(compare_buffer(bytes(std::vector<float>{inf}), bytes(std::vector<float>{-inf}), f32, {1, 1}).ok);
}

TEST(Compare, IntegersExactAndPoisonCounted) {
  std::vector<int32_t> ref = {1, 2, 3, 4};
  std::vector<int32_t> got = {1, 2, -1, -1};
  auto r = compare_buffer(bytes(ref), bytes(got), i32, default_tolerance(ScalarKind::I32), 0xff);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.mismatches, 2u);
  EXPECT_EQ(r.left_poison, 2u);
  EXPECT_EQ(r.first, 2);
  EXPECT_EQ(r.expected_first, 3);
  EXPECT_EQ(r.got_first, -1);
  std::string d = r.describe("out");
  EXPECT_NE(d.find("out: 2 of 4 elements differ (first at [2]: 3 expected, got -1)"), std::string::npos) << d;
  EXPECT_NE(d.find("2 never written"), std::string::npos) << d;
  got[2] = 3;
  got[3] = 5;
  EXPECT_EQ(compare_buffer(bytes(ref), bytes(got), i32, {}).mismatches, 1u);
}

TEST(Compare, HalfAndVectorTypes) {
  std::vector<uint16_t> ref = {float_to_half(1.0f), float_to_half(2.0f)};
  std::vector<uint16_t> close = {float_to_half(1.001f), float_to_half(2.0f)};
  std::vector<uint16_t> far = {float_to_half(1.1f), float_to_half(2.0f)};
  DType f16{ScalarKind::F16, 1};
  EXPECT_TRUE(compare_buffer(bytes(ref), bytes(close), f16, default_tolerance(ScalarKind::F16)).ok);
  EXPECT_FALSE(compare_buffer(bytes(ref), bytes(far), f16, default_tolerance(ScalarKind::F16)).ok);
  DType f32x4{ScalarKind::F32, 4};
  std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8}, b = a;
  b[6] = 70;
  auto r = compare_buffer(bytes(a), bytes(b), f32x4, default_tolerance(ScalarKind::F32));
  EXPECT_EQ(r.elements, 8u);  // lanes
  EXPECT_EQ(r.first, 6);
}

TEST(Compare, LargeBuffersInParallel) {
  std::vector<float> ref(3 << 20), got;
  for (size_t i = 0; i < ref.size(); ++i) ref[i] = static_cast<float>(i % 1000);
  got = ref;
  got[ref.size() - 1] += 100;
  got[12345] = -5;
  auto r = compare_buffer(bytes(ref), bytes(got), f32, default_tolerance(ScalarKind::F32));
  EXPECT_EQ(r.mismatches, 2u);
  EXPECT_EQ(r.first, 12345);
}

TEST(Compare, ChangedBytes) {
  EXPECT_EQ(count_changed_bytes("abcd", "abXd"), 1u);
  EXPECT_EQ(count_changed_bytes("ab", "abcd"), 2u);
}

}  // namespace
}  // namespace stark::harness
