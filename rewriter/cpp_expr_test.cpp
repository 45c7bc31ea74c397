#include "rewriter/cpp_expr.h"

#include <gtest/gtest.h>

#include <map>

namespace stark::rewriter {
namespace {

std::string render(const char* text, std::map<std::string, std::string> names = {}) {
  auto e = LaunchExpr::parse(text);
  EXPECT_TRUE(e) << e.error().message;
  auto r = render_cpp(*e, [&](std::string_view n) -> Expected<CppText> {
    auto it = names.find(std::string(n));
    if (it == names.end()) return Error{"unknown " + std::string(n)};
    return CppText{it->second, false};
  });
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : "";
}

TEST(CppExpr, CeilDivBecomesIntegerArithmeticWithTheArgumentSubstituted) {
  EXPECT_EQ(render("ceil_div(n, 512)", {{"n", "count * 2"}}), "(((count * 2) + 511) / 512)");
  EXPECT_EQ(render("ceil_div(n, 256)", {{"n", "n"}}), "((n + 255) / 256)");
  EXPECT_EQ(render("ceil_div(n, 1)", {{"n", "n"}}), "n");
  EXPECT_EQ(render("ceil_div(n, b)", {{"n", "n"}, {"b", "block + 1"}}), "((n + (block + 1) - 1) / (block + 1))");
}

TEST(CppExpr, MinAndMaxUseOnlyLessThan) {
  // '>' would end a <<< >>> configuration early in a reader's eye; never emit it.
  EXPECT_EQ(render("min(n, 1024)", {{"n", "n"}}), "(n < 1024 ? n : 1024)");
  EXPECT_EQ(render("max(a + 1, 4)", {{"a", "x.size()"}}), "((x.size() + 1) < 4 ? 4 : (x.size() + 1))");
  EXPECT_EQ(render("max(a, 4)", {{"a", "x.size()"}}), "(x.size() < 4 ? 4 : x.size())");
  EXPECT_EQ(render("max(a, 4)", {{"a", "-k"}}), "((-k) < 4 ? 4 : (-k))");
}

TEST(CppExpr, PrecedenceIsKept) {
  EXPECT_EQ(render("(a + b) * c", {{"a", "a"}, {"b", "b"}, {"c", "c"}}), "(a + b) * c");
  EXPECT_EQ(render("a - (b - c)", {{"a", "a"}, {"b", "b"}, {"c", "c"}}), "a - (b - c)");
  EXPECT_EQ(render("a - b - c", {{"a", "a"}, {"b", "b"}, {"c", "c"}}), "a - b - c");
  EXPECT_EQ(render("a / (b * c) % 7", {{"a", "a"}, {"b", "b"}, {"c", "c"}}), "a / (b * c) % 7");
  EXPECT_EQ(render("-(-a)", {{"a", "a"}}), "-(-a)");
  EXPECT_EQ(render("n * 4", {{"n", "s.rows + 1"}}), "(s.rows + 1) * 4");
  EXPECT_EQ(render("0x10 + 4u"), "16 + 4");
}

TEST(CppExpr, NameErrorsPassThrough) {
  auto e = LaunchExpr::parse("ceil_div(m, 2)");
  ASSERT_TRUE(e);
  auto r = render_cpp(*e, [](std::string_view) -> Expected<CppText> { return Error{"no such name"}; });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "no such name");
}

TEST(CppExpr, PrimaryText) {
  for (const char* yes : {"n", "s.rows", "p->n", "ns::k", "256", "3.0f", "0x10u", "(a + b)", "((a) * (b))", "f(x, y)",
                          "a[1]", "x.size()", "v.at(i).n"})
    EXPECT_TRUE(is_primary_text(yes)) << yes;
  for (const char* no : {"a + b", "(a) + (b)", "-n", "", "f(x) * 2", "static_cast<int>(n)", "a ? b : c"})
    EXPECT_FALSE(is_primary_text(no)) << no;
}

}  // namespace
}  // namespace stark::rewriter
