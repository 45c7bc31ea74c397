#include "agents/grounding.h"

#include <gtest/gtest.h>

#include "agents/grounded.h"

namespace stark {
namespace {

const char* kKernel =
    "__global__ void scale(int n, float a, const float* x, float* y) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  // one element per thread\n"
    "  if (i < n) y[i] = a * x[i];\n"
    "}";

TEST(Grounding, APlanThatKeepsTheKernelKeepsItsMarkers) {
  // Reindented and without the comment: the same code.
  std::string plan =
      "__global__ void scale(int n, float a, const float* x, float* y)\n{\n"
      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "    /*STARK_SPAN 1: grid-stride loop*/if (i < n) y[i] = a * x[i];/*STARK_END 1*/\n"
      "}\n";
  auto anchored = anchor_plan(kKernel, plan);
  ASSERT_TRUE(anchored) << anchored.error().message;
  EXPECT_EQ(anchored->mode, Grounding::Spans);
  // The code role sees the node's own text, comment and layout included.
  EXPECT_EQ(anchored->grounded,
            "__global__ void scale(int n, float a, const float* x, float* y) {\n"
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  // one element per thread\n"
            "  /*STARK_SPAN 1: grid-stride loop*/if (i < n) y[i] = a * x[i];/*STARK_END 1*/\n"
            "}");
}

TEST(Grounding, APlanThatRewritesCodeOutsideItsMarkersIsReanchored) {
  // The attack: a plan that silently changes the index computation outside
  // its span. Its span is put back into the untouched kernel.
  std::string plan =
      "__global__ void scale(int n, float a, const float* x, float* y) {\n"
      "  int i = 4 * (blockIdx.x * blockDim.x + threadIdx.x);\n"
      "  /*STARK_SPAN 1: use float4*/if (i < n) y[i] = a * x[i];/*STARK_END 1*/\n"
      "}";
  auto anchored = anchor_plan(kKernel, plan);
  ASSERT_TRUE(anchored) << anchored.error().message;
  EXPECT_EQ(anchored->mode, Grounding::Reanchored);
  EXPECT_NE(anchored->grounded.find("int i = blockIdx.x * blockDim.x + threadIdx.x;"), std::string::npos);
  EXPECT_EQ(anchored->grounded.find("4 * ("), std::string::npos);
  auto spans = parse_spans(anchored->grounded);
  ASSERT_TRUE(spans);
  ASSERT_EQ(spans->size(), 1u);
  EXPECT_EQ((*spans)[0].code, "if (i < n) y[i] = a * x[i];");
}

TEST(Grounding, APlanWhoseSpansAreNotInTheKernelIsSentBackWithTheReason) {
  std::string plan =
      "__global__ void scale(int n, float a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  /*STARK_SPAN 1: vectorise*/if (i < n) y[i] = a * x[i] + 1.0f;/*STARK_END 1*/\n"
      "}";
  auto anchored = anchor_plan(kKernel, plan);
  ASSERT_FALSE(anchored);
  const std::string& why = anchored.error().message;
  EXPECT_NE(why.find("at line 4 of the kernel the plan has `+ 1.0f ;"), std::string::npos) << why;
  EXPECT_NE(why.find("span 1's code `if ( i < n ) ...` is not in the kernel"), std::string::npos) << why;
}

TEST(Grounding, AmbiguousOrEmptySpansCannotBeReanchored) {
  std::string twice = "__global__ void k(float* y) { y[0] = 1; y[1] = 2; y[0] = 1; }";
  std::string plan = "__global__ void k(float* y) { y[1] = 3; /*STARK_SPAN 1: x*/y[0] = 1;/*STARK_END 1*/ }";
  auto a = anchor_plan(twice, plan);
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("more than once"), std::string::npos) << a.error().message;
  auto empty = anchor_plan(twice, "__global__ void k(float* y) { /*STARK_SPAN 1: add a sync*//*STARK_END 1*/ }");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("marks no code"), std::string::npos) << empty.error().message;
  EXPECT_FALSE(anchor_plan(twice, "__global__ void k(float* y) {}"));  // no span at all
}

TEST(Grounding, AnEmptySpanInAFaithfulPlanIsAnInsertionPoint) {
  std::string plan =
      "__global__ void scale(int n, float a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;/*STARK_SPAN 1: prefetch x*//*STARK_END 1*/\n"
      "  if (i < n) y[i] = a * x[i];\n}";
  auto anchored = anchor_plan(kKernel, plan);
  ASSERT_TRUE(anchored) << anchored.error().message;
  EXPECT_EQ(anchored->mode, Grounding::Spans);
  EXPECT_NE(anchored->grounded.find("threadIdx.x;/*STARK_SPAN 1: prefetch x*//*STARK_END 1*/\n  // one element"),
            std::string::npos)
      << anchored->grounded;
}

std::string grounded_scale() {
  auto a = anchor_plan(kKernel,
                       "__global__ void scale(int n, float a, const float* x, float* y) {\n"
                       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "  /*STARK_SPAN 1: unroll*/if (i < n) y[i] = a * x[i];/*STARK_END 1*/\n}");
  EXPECT_TRUE(a);
  return a ? a->grounded : "";
}

TEST(Grounding, CodeThatChangesOnlyItsSpanPasses) {
  std::string code =
      "static __device__ float twice(float v) { return v + v; }\n"  // a new helper before the kernel is fine
      "__global__ void scale(int n, float a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  for (; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i];\n"
      "}\n";
  EXPECT_EQ(outside_span_edit(grounded_scale(), code), std::nullopt);
}

TEST(Grounding, CodeThatEditsOutsideItsSpanIsFlagged) {
  // The attack: the code role quietly changes the signature's types.
  std::string code =
      "__global__ void scale(int n, double a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) y[i] = a * x[i];\n}";
  auto edit = outside_span_edit(grounded_scale(), code);
  ASSERT_TRUE(edit);
  EXPECT_NE(edit->find("the code changed before span 1 `__global__ void scale ( int n ...` (line 1 of the plan)"),
            std::string::npos)
      << *edit;
  std::string trailing =
      "__global__ void scale(int n, float a, const float* x, float* y) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) y[i] = a * x[i];\n}\n__global__ void extra() {}";
  auto after = outside_span_edit(grounded_scale(), trailing);
  ASSERT_TRUE(after);
  EXPECT_NE(after->find("adds `__global__ void extra ( ) { ...` after the kernel"), std::string::npos) << *after;
}

}  // namespace
}  // namespace stark
