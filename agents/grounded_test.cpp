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
  EXPECT_FALSE(parse_spans("/*STARK_SPAN 1: a*/ x"));                               // never closed
  EXPECT_FALSE(parse_spans("/*STARK_SPAN 1: a*/ x /*STARK_END 1*/ /*STARK_SPAN 1: b*/ y /*STARK_END 1*/"));
  EXPECT_FALSE(parse_spans("/*STARK_SPAN 1:  */ x /*STARK_END 1*/"));              // no instruction
  EXPECT_FALSE(parse_spans("x /*STARK_END 3*/"));                                  // end without span
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

}  // namespace
}  // namespace stark
