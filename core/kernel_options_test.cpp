#include "core/kernel_options.h"

#include <gtest/gtest.h>

namespace stark {
namespace {

Expected<KernelOptions> parse(std::initializer_list<const char*> items) {
  KernelOptions o;
  for (const char* item : items)
    if (auto ok = apply_option(o, item); !ok) return ok.error();
  return o;
}

TEST(KernelOptions, ParsesEveryKey) {
  auto o = parse({"budget=12", "rtol=1e-4", " atol = 0.5 ", "skip=false", "seed=-3", "args=n=1048576, a=2.5",
                  "buffers=x[n], y[n * 2]", "grid=ceil_div(n, 256)", "block=256", "shmem=0"});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->budget, 12);
  EXPECT_DOUBLE_EQ(*o->rtol, 1e-4);
  EXPECT_DOUBLE_EQ(*o->atol, 0.5);
  EXPECT_EQ(o->skip, false);
  EXPECT_EQ(o->seed, -3);
  EXPECT_EQ(o->args, "n=1048576, a=2.5");
  EXPECT_EQ(o->buffers, "x[n], y[n * 2]");
  EXPECT_EQ(o->grid, "ceil_div(n, 256)");
}

TEST(KernelOptions, RejectsMalformedValues) {
  EXPECT_NE(parse({"budget=banana"}).error().message.find("'budget' expects an integer, got 'banana'"),
            std::string::npos);
  EXPECT_FALSE(parse({"budget=0"}));
  EXPECT_FALSE(parse({"budget=3.5"}));
  EXPECT_FALSE(parse({"rtol=-1"}));
  EXPECT_FALSE(parse({"rtol=fast"}));
  EXPECT_FALSE(parse({"skip=yes"}));
  EXPECT_FALSE(parse({"args=n"}));
  EXPECT_FALSE(parse({"args=n=abc"}));
  EXPECT_FALSE(parse({"buffers=x"}));
  EXPECT_FALSE(parse({"buffers=x[n"}));
  EXPECT_FALSE(parse({"grid=n +"}));
  EXPECT_FALSE(parse({"block=foo(3)"}));
  EXPECT_FALSE(parse({"budget"}));
}

TEST(KernelOptions, NumbersOutsideWhatCudaOrASearchAllowsAreErrors) {
  auto message = [](std::initializer_list<const char*> items) {
    auto r = parse(items);
    return r ? std::string("accepted") : r.error().message;
  };
  // Past int's range these wrapped to 0 and to a negative budget.
  EXPECT_EQ(message({"budget=4294967296"}), "'budget' must be from 1 to 100000, got 4294967296");
  EXPECT_EQ(message({"budget=2147483648"}), "'budget' must be from 1 to 100000, got 2147483648");
  EXPECT_TRUE(parse({"budget=100000"}));
  EXPECT_EQ(message({"grid=1,2,3,4"}), "'grid' has at most three parts (x, y, z), got 4");
  EXPECT_EQ(message({"shmem=-1"}), "'shmem' must be from 0 to 232448 bytes, got -1");
  EXPECT_EQ(message({"shmem=4,4"}), "'shmem' is one expression (bytes), not a list");
  EXPECT_EQ(message({"block=2048"}), "'block': block.x must be from 1 to 1024, got 2048");
  EXPECT_EQ(message({"block=32,32,2"}), "'block' has 2048 threads; a block has at most 1024");
  EXPECT_EQ(message({"block=0"}), "'block': block.x must be from 1 to 1024, got 0");
  EXPECT_EQ(message({"grid=1,70000"}), "'grid': grid.y must be from 1 to 65535, got 70000");
  EXPECT_EQ(message({"grid=ceil_div(n, 256), 70000"}), "'grid': grid.y must be from 1 to 65535, got 70000");
  // Names are checked against the kernel's parameters by the scan.
  EXPECT_TRUE(parse({"grid=ceil_div(n, 256), rows", "block=256", "shmem=n * 4"}));
}

TEST(KernelOptions, RejectsUnknownAndRepeatedKeys) {
  auto unknown = parse({"budgett=3"});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("unknown option 'budgett'"), std::string::npos);
  auto twice = parse({"budget=3", "budget=4"});
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("given twice"), std::string::npos);
}

TEST(KernelOptions, StructuredArgsAndBuffers) {
  auto args = parse_scalar_args("n=1048576, a=2.5");
  ASSERT_TRUE(args);
  ASSERT_EQ(args->size(), 2u);
  EXPECT_EQ((*args)[1].name, "a");
  EXPECT_EQ((*args)[1].value, "2.5");
  auto bufs = parse_buffer_specs("x[n], y[min(n, 4)]");
  ASSERT_TRUE(bufs);
  ASSERT_EQ(bufs->size(), 2u);
  EXPECT_EQ((*bufs)[1].count, "min(n, 4)");
  EXPECT_FALSE(parse_scalar_args("n=1, n=2"));
}

}  // namespace
}  // namespace stark
