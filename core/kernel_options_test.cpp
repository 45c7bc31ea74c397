#include "core/kernel_options.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

TEST(KernelOptions, TheSearchsSettingsForOneKernel) {
  auto o = parse({"epsilon=0.2", "n_root=8", "n_child=0", "top_r=5", "plan_temperature=1.0", "code_temperature=0",
                  "debug_temperature=0.3"});
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(o->search.epsilon, 0.2);
  EXPECT_EQ(o->search.n_root, 8);
  EXPECT_EQ(o->search.n_child, 0);
  EXPECT_EQ(o->search.top_r, 5);
  EXPECT_EQ(o->search.plan_temperature, 1.0);
  EXPECT_EQ(o->search.code_temperature, 0.0);
  EXPECT_EQ(o->search.debug_temperature, 0.3);
  EXPECT_EQ(parse({"epsilon=1.5"}).error().message, "'epsilon' must be from 0 to 1, got '1.5'");
  EXPECT_EQ(parse({"n_root=0"}).error().message, "'n_root' must be from 1 to 1000, got 0");
  EXPECT_EQ(parse({"top_r=-1"}).error().message, "'top_r' must be from 0 to 100, got -1");
  EXPECT_EQ(parse({"code_temperature=hot"}).error().message, "'code_temperature' expects a number, got 'hot'");
  EXPECT_EQ(parse({"top_r=3", "top_r=4"}).error().message, "option 'top_r' is given twice");

  // In JSON they travel apart from "options" (a contract that lists its keys).
  nlohmann::json options = *o;
  EXPECT_FALSE(options.contains("epsilon"));
  nlohmann::json search = o->search;
  EXPECT_EQ(search.get<SearchSettings>(), o->search);
}

// A manifest is read back as an annotation is parsed: it cannot carry a
// value or a key that an annotation could not.
TEST(KernelOptions, AManifestsSearchSettingsAreCheckedLikeAnAnnotations) {
  EXPECT_THROW(nlohmann::json::parse(R"({"epsilon": 5})").get<SearchSettings>(), std::invalid_argument);
  EXPECT_THROW(nlohmann::json::parse(R"({"budget": 5})").get<SearchSettings>(), std::invalid_argument);
  EXPECT_THROW(nlohmann::json::parse(R"({"top_r": "3"})").get<SearchSettings>(), std::invalid_argument);
  EXPECT_THROW(nlohmann::json::parse(R"({"n_root": 2.5})").get<SearchSettings>(), std::invalid_argument);
  SearchSettings a, b;
  a.epsilon = 0.5;
  b.epsilon = 0.1;
  b.top_r = 2;
  SearchSettings merged = a.over(b);
  EXPECT_EQ(merged.epsilon, 0.5);
  EXPECT_EQ(merged.top_r, 2);
}

}  // namespace
}  // namespace stark
