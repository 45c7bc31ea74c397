#include "harness/worker/judge.h"

#include <string>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace stark::harness {
namespace {

std::string floats(std::vector<float> v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}
std::string poison(size_t n) { return std::string(n * 4, '\xff'); }

std::vector<BufferInfo> info() {
  BufferInfo x{"x", {ScalarKind::F32, 1}, default_tolerance(ScalarKind::F32), false};
  BufferInfo y{"y", {ScalarKind::F32, 1}, default_tolerance(ScalarKind::F32), true};
  return {x, y};
}

Memory mem(std::string x, std::string y) { return Memory{{x, y}, {"", ""}, {}}; }

TEST(Judge, CorrectCandidatePasses) {
  auto before = std::vector<std::string>{floats({1, 2}), poison(2)};
  auto ref = mem(floats({1, 2}), floats({2, 4}));
  auto j = judge(info(), before, ref, mem(floats({1, 2}), floats({2, 4})), 0xff);
  EXPECT_TRUE(j.ok());
}

TEST(Judge, UnwrittenOutputFailsAsWrong) {
  auto before = std::vector<std::string>{floats({1, 2}), poison(2)};
  auto ref = mem(floats({1, 2}), floats({2, 4}));
  auto j = judge(info(), before, ref, mem(floats({1, 2}), poison(2)), 0xff);
  ASSERT_EQ(j.wrong.size(), 1u);
  EXPECT_NE(j.wrong[0].find("2 never written"), std::string::npos) << j.wrong[0];
  EXPECT_TRUE(j.inputs.empty());
}

TEST(Judge, ModifiedInputAndGuards) {
  auto before = std::vector<std::string>{floats({1, 2}), poison(2)};
  auto ref = mem(floats({1, 2}), floats({2, 4}));
  Memory got = mem(floats({1, 3}), floats({2, 4}));
  got.guard_damage[1] = "4 bytes after the end";
  auto j = judge(info(), before, ref, got, 0xff);
  EXPECT_TRUE(j.wrong.empty());
  ASSERT_EQ(j.inputs.size(), 1u);
  EXPECT_NE(j.inputs[0].find("x: the original leaves it unchanged"), std::string::npos);
  ASSERT_EQ(j.guards.size(), 1u);
  EXPECT_EQ(j.guards[0], "y: 4 bytes after the end written");
}

TEST(Judge, RewritingAWritableBufferWithEqualValuesIsFine) {
  // A second call: y already holds the answer and the original rewrites it unchanged.
  auto before = std::vector<std::string>{floats({1, 2}), floats({2, 4})};
  auto ref = mem(floats({1, 2}), floats({2, 4}));
  EXPECT_TRUE(judge(info(), before, ref, mem(floats({1, 2}), floats({2, 4.0000001f})), 0xff).ok());
  EXPECT_FALSE(judge(info(), before, ref, mem(floats({1, 2}), floats({2, 5})), 0xff).ok());
}

TEST(Unread, PureOutputIsUnreadInPlaceUpdateIsRead) {
  // y = 2x: poisoning y changes nothing the kernel writes.
  Memory normal = mem(floats({1, 2}), floats({2, 4}));
  EXPECT_TRUE(unread(info(), 1, normal, mem(floats({1, 2}), floats({2, 4})), 0xff));
  // y = 2x on the first element only: the rest stays poison.
  Memory partial = mem(floats({1, 2}), floats({2, 4}));
  std::memset(partial.buffers[1].data() + 4, 0xff, 4);
  EXPECT_TRUE(unread(info(), 1, normal, partial, 0xff));
  // y += x: with y poisoned the result is a (canonical) NaN, not the poison and not the normal result.
  float nan = __builtin_nanf("");
  EXPECT_FALSE(unread(info(), 1, normal, mem(floats({1, 2}), floats({nan, nan})), 0xff));
  // Poisoning y changed x: y is read.
  EXPECT_FALSE(unread(info(), 1, normal, mem(floats({1, 7}), floats({2, 4})), 0xff));
}

}  // namespace
}  // namespace stark::harness
