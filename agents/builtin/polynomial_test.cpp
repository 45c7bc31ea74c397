#include "agents/builtin/polynomial.h"

#include <gtest/gtest.h>

namespace stark::builtin {
namespace {

Polynomial P(std::string_view text, const std::map<std::string, Polynomial>& known = {}) {
  auto p = parse_polynomial(text, known);
  EXPECT_TRUE(p) << text;
  return p.value_or(Polynomial{});
}

TEST(Polynomial, SpellingsOfOneIndexAgree) {
  Polynomial a = P("static_cast<size_t>(r) * cols + c");
  EXPECT_EQ(a, P("c + cols * r"));
  EXPECT_EQ(a, P("(size_t)r * cols + c"));
  EXPECT_EQ(a.at({"cols", "r"}), 1);
  EXPECT_EQ(a.at({"r", "cols"}), 1);  // monomials are sorted
  EXPECT_EQ(a.at({"c"}), 1);
  EXPECT_EQ(a.at({}), 0);
}

TEST(Polynomial, LocalsStandForTheirDefinition) {
  std::map<std::string, Polynomial> known = {{"i", P("static_cast<size_t>(r) * cols + c")}};
  EXPECT_EQ(P("i - cols", known), P("(r - 1) * cols + c"));
  EXPECT_EQ(P("i + 1", known) - P("i", known), Polynomial::constant(1));
  EXPECT_EQ(P("i + 2 * cols - 1u", known), P("(r + 2) * cols + (c - 1)"));
  EXPECT_EQ(P("-(-i)", known), known.at("i"));
  EXPECT_EQ(P("shape.cols * y + x").at({"shape.cols", "y"}), 1);
}

TEST(Polynomial, WhatItCannotReadIsRefused) {
  for (const char* text :
       {"i / 2", "f(i)", "a[i]", "i % n", "1.5 * i", "0x10 + i", "i +", "(i", "static_cast<float>(i)"})
    EXPECT_FALSE(parse_polynomial(text)) << text;
}

}  // namespace
}  // namespace stark::builtin
