#include "core/launch_expr.h"

#include <gtest/gtest.h>

#include <limits>
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

Expected<int64_t> try_eval(const std::string& text) {
  auto e = LaunchExpr::parse(text);
  if (!e) return e.error();
  return e->evaluate([](std::string_view name) -> std::optional<int64_t> {
    if (name == "min64") return std::numeric_limits<int64_t>::min();
    if (name == "max64") return std::numeric_limits<int64_t>::max();
    return std::nullopt;
  });
}

// Each of these trapped (SIGFPE) or was undefined before: a hostile override
// or annotation must give an error, never a crash.
TEST(LaunchExpr, EveryUndefinedCaseIsAnError) {
  for (const char* text :
       {"min64 / -1", "(-9223372036854775807 - 1) / -1", "-min64", "- - -min64", "max64 + 1", "min64 - 1", "max64 * 2",
        "ceil_div(max64, 1) * 2", "1 % 0", "1 / (2 - 2)", "ceil_div(1, 0)", "ceil_div(1, -1)"}) {
    auto v = try_eval(text);
    EXPECT_FALSE(v) << text << " = " << *v;
  }
  EXPECT_EQ(*try_eval("min64 % -1"), 0);
  EXPECT_EQ(*try_eval("ceil_div(max64, 2)"), std::numeric_limits<int64_t>::max() / 2 + 1);
  EXPECT_EQ(*try_eval("ceil_div(-5, 2)"), -2);
  EXPECT_EQ(*try_eval("- -max64"), std::numeric_limits<int64_t>::max());
}

// 20,000 nested parentheses overflowed the parser's stack (and so lost a
// whole scan); long and deep texts are errors that quote only their start.
TEST(LaunchExpr, DepthAndLengthAreLimited) {
  std::string deep = std::string(200, '(') + "1" + std::string(200, ')');
  ASSERT_TRUE(LaunchExpr::parse(deep)) << "200 levels are allowed";
  for (std::string text : {std::string(20000, '(') + "1" + std::string(20000, ')'),
                           std::string(300, '(') + "1" + std::string(300, ')'), std::string(300, '-') + "1",
                           [] {
                             std::string s = "1";
                             for (int i = 0; i < 300; ++i) s = "min(" + s + ", 2)";
                             return s;
                           }(),
                           std::string(5000, '1')}) {
    auto e = LaunchExpr::parse(text);
    ASSERT_FALSE(e) << text.size();
    EXPECT_LT(e.error().message.size(), 200u) << e.error().message;
  }
  EXPECT_NE(LaunchExpr::parse(std::string(300, '(') + "1").error().message.find("nested deeper than 256 levels"),
            std::string::npos);
  std::string chain = "1";  // long but flat: within the length limit, fine
  for (int i = 0; i < 1000; ++i) chain += "+1";
  EXPECT_EQ(*try_eval(chain), 1001);
}

}  // namespace
}  // namespace stark
