#include "agents/grounded.h"

#include <gtest/gtest.h>

namespace stark {
namespace {

TEST(Grounded, ParsesSpans) {
  auto spans = parse_spans(
      "__global__ void k(int n, float* x) {\n"
      "/*STARK_SPAN 1: use a grid-stride loop*/ int i = threadIdx.x; /*STARK_END 1*/\n"
      "  /* STARK_SPAN 2 : vectorise\n the store */ x[i] = 0; /*STARK_END 2*/\n}");
  ASSERT_TRUE(spans) << spans.error().message;
  ASSERT_EQ(spans->size(), 2u);
  EXPECT_EQ((*spans)[0].instruction, "use a grid-stride loop");
  EXPECT_EQ((*spans)[0].code, " int i = threadIdx.x; ");
  EXPECT_EQ((*spans)[1].instruction, "vectorise\n the store");
}

TEST(Grounded, RejectsMalformedMarkers) {
  EXPECT_FALSE(parse_spans("/*STARK_SPAN 1: a*/ x"));  // never closed
  EXPECT_FALSE(parse_spans("/*STARK_SPAN 1: a*/ x /*STARK_END 1*/ /*STARK_SPAN 1: b*/ y /*STARK_END 1*/"));
  EXPECT_FALSE(parse_spans("/*STARK_SPAN 1:  */ x /*STARK_END 1*/"));  // no instruction
  EXPECT_FALSE(parse_spans("x /*STARK_END 3*/"));                      // end without span
  EXPECT_FALSE(parse_spans("/*STARK_SPAN 1: a*/ /*STARK_SPAN 2: b*/ x /*STARK_END 2*/ /*STARK_END 1*/"));
  auto none = parse_spans("__global__ void k() {}");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST(Grounded, WholeBodyFallbackAndFilledCheck) {
  std::string src = "__global__ void k(int n) { if (n) return; }";
  auto body = find_body(src, "k");
  ASSERT_TRUE(body);
  EXPECT_EQ(src.substr(body->begin, body->end - body->begin), "{ if (n) return; }");
  std::string g = ground_whole_body(src, *body, "unroll");
  auto spans = parse_spans(g);
  ASSERT_TRUE(spans);
  ASSERT_EQ(spans->size(), 1u);
  EXPECT_EQ((*spans)[0].code, " if (n) return; ");
  EXPECT_FALSE(check_spans_filled(g));
  EXPECT_TRUE(check_spans_filled(src));
}

TEST(Grounded, FindBodySkipsDeclarationsCommentsAndStrings) {
  std::string src =
      "__global__ void k(int n);\n"
      "static __device__ int helper_k(int v) { return v; }\n"
      "__global__ void k(int n) { /* } */ const char* s = \"}\"; // }\n if (n) {} }";
  auto body = find_body(src, "k");
  ASSERT_TRUE(body);
  EXPECT_EQ(src.substr(body->begin), "{ /* } */ const char* s = \"}\"; // }\n if (n) {} }");
  EXPECT_FALSE(find_body("__global__ void k(int n);", "k"));
}

// The same scanner as the rest of STARK (core/cpp_tokens.h): a raw string's
// brackets and quotes, and the name in a comment, are not code.
TEST(Grounded, FindBodySeesRawStringsAndCommentedNamesAsText) {
  std::string src =
      "// k(int n) { not this }\n"
      "__global__ void k(int n) __launch_bounds__(256) { const char* s = R\"x(}\" k(1) {)x\"; if (n) {} }";
  auto body = find_body(src, "k");
  ASSERT_TRUE(body);
  EXPECT_EQ(src.substr(static_cast<size_t>(body->begin)), "{ const char* s = R\"x(}\" k(1) {)x\"; if (n) {} }");
}

// The grounded code comes from a model's reply: a number too large for an int
// once threw out of the parser, a long instruction overflowed the stack of a
// recursive regular expression.
TEST(Grounded, HostileMarkersAreErrorsNotCrashes) {
  auto big = parse_spans("/*STARK_SPAN 99999999999999999999: a*/ x /*STARK_END 99999999999999999999*/");
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("too large"), std::string::npos) << big.error().message;

  std::string instruction(200'000, 'i');
  auto long_one = parse_spans("/*STARK_SPAN 1: " + instruction + "*/ x /*STARK_END 1*/");
  ASSERT_TRUE(long_one) << long_one.error().message;
  EXPECT_EQ((*long_one)[0].instruction, instruction);

  std::string unclosed;
  while (unclosed.size() < 250'000) unclosed += "/*STARK_SPAN 1: ";
  EXPECT_TRUE(parse_spans(unclosed));  // no "*/": not a marker at all
  std::string many;
  for (int i = 0; i < 20'000; ++i) many += "/*STARK_SPAN " + std::to_string(i) + ": a*/";
  auto never_closed = parse_spans(many);
  ASSERT_FALSE(never_closed);
  EXPECT_EQ(never_closed.error().message, "span 0 is never closed (STARK_END 0)");
  EXPECT_FALSE(check_spans_filled(std::string(100'000, ' ') + "/*  STARK_END"));
  EXPECT_TRUE(check_spans_filled("/*STARK_SPANS are gone*/"));
}

TEST(Grounded, FindBodyOnRepeatedNames) {
  std::string nested;
  for (int i = 0; i < 30'000; ++i) nested += "k(";
  nested += std::string(30'000, ')') + ";\nvoid k(int n) { n--; }";
  auto body = find_body(nested, "k");  // a call nesting 30000 more, then the definition
  ASSERT_TRUE(body);
  EXPECT_EQ(nested.substr(static_cast<size_t>(body->begin)), "{ n--; }");
  std::string declared;
  for (int i = 0; i < 30'000; ++i) declared += "void k(int);\n";
  declared += "void k(int n) { n++; }";
  body = find_body(declared, "k");
  ASSERT_TRUE(body);
  EXPECT_EQ(declared.substr(static_cast<size_t>(body->begin)), "{ n++; }");
}

}  // namespace
}  // namespace stark
