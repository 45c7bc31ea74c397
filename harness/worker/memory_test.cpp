#include "harness/worker/memory.h"

#include <gtest/gtest.h>

namespace stark::harness {
namespace {

TEST(MemoryPool, AReadBackReusesTheStorageOfTheLastOne) {
  MemoryPool pool(2);
  const char* storage = nullptr;
  {
    auto m = pool.lend();
    m->buffers.assign(1, std::string(1 << 20, 'x'));
    storage = m->buffers[0].data();
  }
  EXPECT_EQ(pool.idle(), 1u);
  auto again = pool.lend();
  ASSERT_EQ(again->buffers.size(), 1u);
  EXPECT_EQ(again->buffers[0].data(), storage) << "the pages are lent again, not allocated anew";
  EXPECT_EQ(pool.idle(), 0u);
}

TEST(MemoryPool, KeepsNoMoreThanItsSpares) {
  MemoryPool pool(2);
  {
    auto a = pool.lend(), b = pool.lend(), c = pool.lend();
    for (auto* m : {&a, &b, &c}) (*m)->buffers.assign(1, std::string(64, 'y'));
  }
  EXPECT_EQ(pool.idle(), 2u);
}

TEST(MemoryPool, AMovedLoanGoesBackOnce) {
  MemoryPool pool(4);
  {
    auto a = pool.lend();
    auto b = std::move(a);
    b->buffers.assign(1, "z");
  }
  EXPECT_EQ(pool.idle(), 1u);
}

}  // namespace
}  // namespace stark::harness
