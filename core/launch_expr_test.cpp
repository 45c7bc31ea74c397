#include "core/launch_expr.h"

#include <gtest/gtest.h>

#include <map>

namespace stark {
namespace {

int64_t eval(const char* text, std::map<std::string, int64_t> vars = {}) {
  auto e = LaunchExpr::parse(text);
  EXPECT_TRUE(e) << e.error().message;
  auto v = e->evaluate([&](std::string_view name) -> std::optional<int64_t> {
    auto it = vars.find(std::string(name));
    if (it == vars.end()) return std::nullopt;
    return it->second;
  });
  EXPECT_TRUE(v) << v.error().message;
  return v ? *v : -1;
}

TEST(LaunchExpr, Arithmetic) {
  EXPECT_EQ(eval("1 + 2 * 3"), 7);
  EXPECT_EQ(eval("(1 + 2) * 3"), 9);
  EXPECT_EQ(eval("(n + 255) / 256", {{"n", 1000}}), 4);
  EXPECT_EQ(eval("ceil_div(n, 256)", {{"n", 1025}}), 5);
  EXPECT_EQ(eval("min(grid.x, 132 * 4)", {{"grid.x", 10000}}), 528);
  EXPECT_EQ(eval("max(p.rows, 1) % 7", {{"p.rows", 20}}), 6);
  EXPECT_EQ(eval("-3 + 0x10 + 4u"), 17);
}

TEST(LaunchExpr, Names) {
  auto e = LaunchExpr::parse("ceil_div(p.n * k, block.x) + n");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->names(), (std::set<std::string>{"p.n", "k", "block.x", "n"}));
}

TEST(LaunchExpr, Errors) {
  EXPECT_FALSE(LaunchExpr::parse("n +"));
  EXPECT_FALSE(LaunchExpr::parse("sqrt(n)"));
  EXPECT_FALSE(LaunchExpr::parse("n ? 1 : 2"));
  EXPECT_FALSE(LaunchExpr::parse("2.5"));
  EXPECT_FALSE(LaunchExpr::parse("min(1)"));
  EXPECT_FALSE(LaunchExpr::parse(""));
  auto div = LaunchExpr::parse("n / 0");
  ASSERT_TRUE(div);
  EXPECT_FALSE(div->evaluate([](std::string_view) { return std::optional<int64_t>(1); }));
  auto unknown = LaunchExpr::parse("m");
  ASSERT_TRUE(unknown);
  EXPECT_FALSE(unknown->evaluate([](std::string_view) { return std::optional<int64_t>(); }));
  auto big = LaunchExpr::parse("4611686018427387904 * 4");
  ASSERT_TRUE(big);
  EXPECT_FALSE(big->evaluate([](std::string_view) { return std::optional<int64_t>(); }));
}

}  // namespace
}  // namespace stark
