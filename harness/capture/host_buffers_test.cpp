#include "harness/capture/host_buffers.h"

#include <gtest/gtest.h>

namespace stark::harness {
namespace {

TEST(HostBufferPool, GivesBackAKeptBufferOfTheSameSize) {
  HostBufferPool pool(1 << 20);
  HostCopy a = pool.take(4096);
  ASSERT_EQ(a.size, 4096u);
  const char* memory = a.data.get();
  pool.give(std::move(a));
  EXPECT_EQ(pool.kept_bytes(), 4096u);
  HostCopy other = pool.take(1024);  // another size: new memory
  EXPECT_EQ(other.size, 1024u);
  EXPECT_EQ(pool.kept_bytes(), 4096u);
  HostCopy again = pool.take(4096);
  EXPECT_EQ(again.data.get(), memory);
  EXPECT_EQ(pool.kept_bytes(), 0u);
}

TEST(HostBufferPool, KeepsAtMostItsBudget) {
  HostBufferPool pool(10000);
  pool.give(pool.take(6000));
  pool.give(pool.take(3000));
  pool.give(HostCopy{std::unique_ptr<char[]>(new char[6000]), 6000});  // would pass 10000: freed
  EXPECT_EQ(pool.kept_bytes(), 9000u);
  pool.give(HostCopy{});  // nothing to keep
  EXPECT_EQ(pool.kept_bytes(), 9000u);
}

}  // namespace
}  // namespace stark::harness
