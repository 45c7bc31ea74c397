#include "core/cpp_tokens.h"

#include <gtest/gtest.h>

#include <string>

namespace stark {
namespace {

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  for (const CppToken& t : cpp_tokens(text)) out.emplace_back(token_text(text, t));
  return out;
}

using V = std::vector<std::string>;

TEST(CppTokens, LayoutAndCommentsAreNotTokens) {
  EXPECT_EQ(words("int  i=0; // note\n/* block\n comment */ i+=1;"),
            (V{"int", "i", "=", "0", ";", "i", "+=", "1", ";"}));
  EXPECT_EQ(words("a - -b"), (V{"a", "-", "-", "b"}));
  EXPECT_EQ(words("a--b"), (V{"a", "--", "b"}));
}

TEST(CppTokens, LiteralsAreWholeTokens) {
  EXPECT_EQ(words(R"(f("a /* not a comment */ \" b", 'x', '\''))"),
            (V{"f", "(", R"("a /* not a comment */ \" b")", ",", "'x'", ",", R"('\'')", ")"}));
  EXPECT_EQ(words("R\"d( ) \" // )d\" + u8\"x\" + LR\"(y)\""),
            (V{"R\"d( ) \" // )d\"", "+", "u8\"x\"", "+", "LR\"(y)\""}));
  EXPECT_EQ(words("1'000'000 + 1.5e-3f + 0x1p+4 + .5"), (V{"1'000'000", "+", "1.5e-3f", "+", "0x1p+4", "+", ".5"}));
}

TEST(CppTokens, ChevronsAndLongPunctuators) {
  EXPECT_EQ(words("k<<<g, b>>>(x); a <<= 2; p->*m; ::f(...);"), (V{"k", "<<<", "g",  ",",   "b", ">>>", "(", "x",
                                                                   ")", ";",   "a",  "<<=", "2", ";",   "p", "->*",
                                                                   "m", ";",   "::", "f",   "(", "...", ")", ";"}));
}

TEST(CppTokens, UnterminatedTextEndsAtTheEnd) {
  EXPECT_EQ(words("a /* open"), (V{"a"}));
  EXPECT_EQ(words("b \"open"), (V{"b", "\"open"}));
}

TEST(CppTokens, CountsAnIdentifierOnlyWhereItIsCode) {
  std::string text = "y[i] = x[i] + xs; // x\nconst char* s = \"x\"; /* return */ x2 = 'x';";
  EXPECT_EQ(count_identifier(text, "x"), 1u);
  EXPECT_EQ(count_identifier(text, "y"), 1u);
  EXPECT_FALSE(has_identifier(text, "return"));
  EXPECT_TRUE(has_identifier("if (i >= n) return;", "return"));
}

TEST(CppTokens, FindsASequenceWhateverTheLayout) {
  std::string text = "for (int i = 0; i < n; ++i)\n  y[i] = a * x[i];";
  std::string needle = "y [ i ]=a*x[i]";
  auto hay = cpp_tokens(text), want = cpp_tokens(needle);
  auto at = find_tokens(text, hay, needle, want, 0);
  ASSERT_TRUE(at);
  EXPECT_EQ(token_text(text, hay[*at]), "y");
  EXPECT_FALSE(find_tokens(text, hay, needle, want, *at + 1));
  std::string other = "y[i] = b * x[i]";
  EXPECT_FALSE(find_tokens(text, hay, other, cpp_tokens(other), 0));
}

TEST(CppTokens, FindingStaysLinearOnRepetitiveText) {
  // A model's reply may repeat one token thousands of times: the search
  // must not go quadratic (it would take minutes at this size).
  std::string text, needle;
  for (int i = 0; i < 200000; ++i) text += "a ";
  for (int i = 0; i < 20000; ++i) needle += "a ";
  needle += "b";
  EXPECT_FALSE(find_tokens(text, cpp_tokens(text), needle, cpp_tokens(needle), 0));
}

}  // namespace
}  // namespace stark
