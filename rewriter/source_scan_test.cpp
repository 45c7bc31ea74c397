#include "rewriter/source_scan.h"

#include <gtest/gtest.h>

namespace stark::rewriter {
namespace {

std::string at(std::string_view text, std::optional<Span> s) {
  if (!s) return "<none>";
  return std::string(text.substr(s->begin, s->end - s->begin));
}

TEST(SourceScan, MaskBlanksCommentsAndLiteralsKeepingOffsets) {
  std::string text = "a /* x<<<y */ b // c \"d\"\n\"e<<<\" 'f' R\"(g)\" 1'000 h";
  std::string m = code_mask(text);
  ASSERT_EQ(m.size(), text.size());
  EXPECT_EQ(m.find("<<<"), std::string::npos);
  EXPECT_EQ(m.find('g'), std::string::npos);
  EXPECT_NE(m.find('h'), std::string::npos);
  EXPECT_NE(m.find('\n'), std::string::npos);
  EXPECT_EQ(m.substr(m.size() - 7), "1'000 h");
}

TEST(SourceScan, FindsEveryAnnotationSpelling) {
  std::string a = "template <class T>\nSTARK_OPTIMIZE(\"budget=8\", \"x=(1)\") __global__ void k() {}";
  EXPECT_EQ(at(a, find_annotation(a)), "STARK_OPTIMIZE(\"budget=8\", \"x=(1)\")");
  std::string b = "[[stark::optimize(\"budget=4\")]] __global__ void k() {}";
  EXPECT_EQ(at(b, find_annotation(b)), "[[stark::optimize(\"budget=4\")]]");
  std::string c = "[[nodiscard]] [[clang::annotate(\"stark::optimize\")]] __global__ void k() {}";
  EXPECT_EQ(at(c, find_annotation(c)), "[[clang::annotate(\"stark::optimize\")]]");
  std::string d = "__attribute__((annotate(\"stark::optimize\"))) __global__ void k() {}";
  EXPECT_EQ(at(d, find_annotation(d)), "__attribute__((annotate(\"stark::optimize\")))");
  std::string none =
      "// STARK_OPTIMIZE() in a comment\n__global__ void k() { const char* s = \"[[stark::optimize]]\"; }";
  EXPECT_FALSE(find_annotation(none));
}

TEST(SourceScan, AnnotationGoesBeforeTheKernelsSpecifiers) {
  std::string t = "template <typename T, int N>\n__global__ void k(T* x) {}";
  EXPECT_EQ(annotation_insert_point(t), t.find("__global__"));
  std::string s = "static __device__ float h(float x) { return x; }\nstatic inline __global__ void k() {}";
  EXPECT_EQ(annotation_insert_point(s), s.find("static inline"));
  std::string c = "extern \"C\" __global__ void k() {}";
  EXPECT_EQ(annotation_insert_point(c), c.find("__global__"));
  EXPECT_FALSE(annotation_insert_point("__device__ void f() {} // __global__"));
}

TEST(SourceScan, ChevronCallee) {
  auto callee = [](std::string text) { return at(text, chevron_callee(text, text.find("<<<"))); };
  EXPECT_EQ(callee("  detail::scale<T, 4><<<(n + 255) / 256, 256>>>(n);"), "detail::scale<T, 4>");
  EXPECT_EQ(callee("{ saxpy_kernel <<<g, b>>>(n); }"), "saxpy_kernel");
  EXPECT_EQ(callee("if (ok) k<<<1, 1>>>();"), "k");
  EXPECT_EQ(callee("if (ok) (*table[i])<<<1, 1>>>();"), "(*table[i])");
  EXPECT_EQ(callee("x; kernels[i]<<<1, 1>>>();"), "kernels[i]");
  EXPECT_EQ(callee("x; ns::pick<float>(mode)<<<1, 1>>>();"), "ns::pick<float>(mode)");
}

TEST(SourceScan, CallHeadFindsTheKernelArgument) {
  std::string text = "return cudaLaunchKernel((const void*)scale<float, 4>, dim3(g), dim3(256), args, 0, s);";
  auto head = call_head_before(text, text.find("dim3(g)"));
  ASSERT_TRUE(head);
  EXPECT_EQ(head->function, "cudaLaunchKernel");
  EXPECT_EQ(at(text, head->first_argument), "(const void*)scale<float, 4>");
  EXPECT_FALSE(call_head_before(text, text.find("cudaLaunchKernel")));
}

TEST(SourceScan, NextSeparator) {
  std::string text = "f(a, g(b, c), d)";
  EXPECT_EQ(next_separator(text, 2), text.find(", g"));
  EXPECT_EQ(next_separator(text, 5), text.find(", d"));
  EXPECT_EQ(next_separator(text, text.find(", d") + 1), text.size() - 1);
  EXPECT_FALSE(next_separator("a; b)", 0));
}

}  // namespace
}  // namespace stark::rewriter
