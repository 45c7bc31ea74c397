#include "harness/capture/host_buffers.h"

#include <gtest/gtest.h>

#include "harness/capture/pinned_memory.h"

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
  pool.give(HostCopy::heap(6000));  // would pass 10000: freed
  EXPECT_EQ(pool.kept_bytes(), 9000u);
  pool.give(HostCopy{});  // nothing to keep
  EXPECT_EQ(pool.kept_bytes(), 9000u);
}

TEST(HostBufferPool, KeepsPinnedBuffersBeyondItsBudget) {
  static int released = 0;
  HostBufferPool pool(100);
  pool.give(HostCopy{std::unique_ptr<char, HostFree>(new char[500], HostFree{[](char* p) {
                                                                               ++released;
                                                                               delete[] p;
                                                                             },
                                                                             true}),
                     500});
  EXPECT_EQ(released, 0);
  EXPECT_EQ(pool.kept_bytes(), 500u);
}

TEST(HostBufferPool, NewBuffersComeFromItsAllocatorElseTheHeap) {
  static int released = 0;
  int allocated = 0;
  {
    HostBufferPool pool(1 << 20, [&](size_t n) {
      if (n > 1000) return HostCopy{};  // this allocator fails for large buffers
      ++allocated;
      return HostCopy{std::unique_ptr<char, HostFree>(new char[n], HostFree{[](char* p) {
                                                        ++released;
                                                        delete[] p;
                                                      }}),
                      n};
    });
    HostCopy small = pool.take(100);
    HostCopy large = pool.take(5000);
    EXPECT_EQ(allocated, 1);
    ASSERT_TRUE(large.data);  // from the heap
    EXPECT_EQ(large.size, 5000u);
    pool.give(std::move(small));
    HostCopy again = pool.take(100);  // kept: the allocator is not asked
    EXPECT_EQ(allocated, 1);
    EXPECT_EQ(released, 0);
  }
  EXPECT_EQ(released, 1);  // its own free, once
}

TEST(PinnedMemory, OutsideACudaContextTheHeapServes) {
  // No driver here, or a driver with no current context: registering fails
  // and the snapshot still gets memory (the GPU test covers the pinned path).
  HostBufferPool pool(1 << 20, pinned_allocator(1 << 20));
  HostCopy a = pool.take(4096);
  ASSERT_TRUE(a.data);
  EXPECT_FALSE(a.data.get_deleter().pinned);
  a.data.get()[4095] = 1;
  pool.give(std::move(a));
  EXPECT_EQ(pool.kept_bytes(), 4096u);
}

TEST(PinnedMemory, BudgetIsASixteenthOfTheMachineAtMostFourGiB) {
  EXPECT_EQ(pinned_budget(8ull << 30), 512ull << 20);
  EXPECT_EQ(pinned_budget(64ull << 30), 4ull << 30);
  EXPECT_EQ(pinned_budget(512ull << 30), 4ull << 30);
}

}  // namespace
}  // namespace stark::harness
