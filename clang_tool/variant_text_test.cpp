// The lexical rules of a variant's text (no parse): every preprocessor
// directive but the loop pragmas, __CUDA_ARCH__, and text that runs on into
// the file after the kernel.
#include "clang_tool/variant_text.h"

#include <gtest/gtest.h>

#include <string>

namespace stark {
namespace {

void expect_refused(std::string_view source, const std::string& part, std::string_view following = {}) {
  auto r = check_variant_text(source, following);
  ASSERT_FALSE(r) << "accepted: " << source;
  EXPECT_NE(r.error().message.find(part), std::string::npos) << r.error().message;
}

void expect_accepted(std::string_view source, std::string_view following = {}) {
  auto r = check_variant_text(source, following);
  EXPECT_TRUE(r) << source << "\n" << r.error().message;
}

TEST(VariantText, AcceptsLoopPragmasAndDirectivesThatAreNotDirectives) {
  expect_accepted("#pragma unroll\nfor (;;) {}");
  expect_accepted("  #pragma unroll 4\n  # pragma unroll (kN * 2)\n#pragma unroll sizeof(T) / 4\n#pragma nounroll\n");
  expect_accepted("_Pragma(\"unroll 8\") for (;;) {}\n_Pragma(\"nounroll\")");
  expect_accepted("// #define X in a comment, __CUDA_ARCH__ too\n/* #include <cstdio>\n#if 1 */ int x;");
  expect_accepted("const char* s = R\"(\n#define X 1\n)\"; const char* t = \"__CUDA_ARCH__ #include\";");
  expect_accepted("int a = b # c;");  // not at the start of a line: not a directive (nor C++)
}

TEST(VariantText, RefusesEveryOtherDirectiveHoweverItIsSpelled) {
  expect_refused(
      "__global__ void k() {}\n#define cudaGetLastError() (system(\"id\"), cudaSuccess)",
      "variant line 2: the preprocessor directive '#define cudaGetLastError() (system(\"id\"), cudaSuccess)' "
      "is not allowed");
  expect_refused("#include <cuda_fp16.h>\n", "'#include <cuda_fp16.h>'");
  expect_refused("  #  include \"/etc/passwd\"\n", "'#  include \"/etc/passwd\"'");
  expect_refused("%:define X 1\n", "'%:define X 1'");                // a digraph
  expect_refused("/* a comment */ #define X 1\n", "'#define X 1'");  // a comment before the #
  // After a comment with a line break: no directive to the standard, but refused all the same.
  expect_refused("int x; /* a\ncomment */ #define X 1\n", "'#define X 1'");
  expect_refused("#def\\\nine X 1\n", "is not allowed");  // a line splice inside
  expect_refused("#\n", "'#'");                           // the null directive
  expect_refused("#pragma once\n", "'#pragma once'");
  expect_refused("#pragma redefine_extname cudaGetLastError system\n", "'#pragma redefine_extname");
  expect_refused("#pragma unroll 4; int x = 0;\n", "'#pragma unroll 4; int x = 0;'");
  expect_refused("#pragma unroll \\\n([]{ return 4; }())\n", "is not allowed");
  expect_refused("#pragma nounroll 4\n", "'#pragma nounroll 4'");
  expect_refused("?\?=define X 1\n", "the trigraph '?\?='");
  expect_refused("int x; // ?\?/\n#define X 1\n", "the trigraph '?\?/'");
  expect_refused(std::string_view("int x;\0#define X", 16), "NUL");
  expect_refused("import evil;\n", "C++20 module directive");
  expect_refused("  /* c */ export module evil;\n", "C++20 module directive");
}

TEST(VariantText, RefusesCudaArchAndPragmaOperatorsAnywhere) {
  expect_refused("if (__CUDA_ARCH__ >= 800) x = 1;", "'__CUDA_ARCH__' is not allowed");
  expect_refused("int archs[] = {__CUDA_ARCH_LIST__};", "'__CUDA_ARCH_LIST__' is not allowed");
  expect_refused("_Pragma(\"redefine_extname cudaGetLastError system\")", "'_Pragma' is not allowed");
  expect_refused("_Pragma(\"unroll\\\" x\")", "'_Pragma' is not allowed");
  expect_refused("__pragma(once)", "'__pragma' is not allowed");
}

TEST(VariantText, NothingRunsOnIntoTheCodeAfterTheKernel) {
  expect_accepted("__global__ void k() {}  // done", "\nvoid after();\n");
  expect_refused("__global__ void k() {}  // done", "its last comment runs on", " } void after();\n");
  expect_refused("__global__ void k() {}  // swallow \\", "its last comment runs on", "\nvoid after();\n");
  expect_refused("__global__ void k() {}  /* open", "an unclosed comment", "\nvoid after();\n");
  expect_refused("__global__ void k() {}  /* open", "an unclosed comment");
}

TEST(VariantText, LoopPragmaAtTheStartOfAText) {
  EXPECT_TRUE(starts_with_loop_pragma("#pragma unroll 4\nfor (;;) {}"));
  EXPECT_TRUE(starts_with_loop_pragma("_Pragma(\"unroll\") for (;;) {}"));
  EXPECT_FALSE(starts_with_loop_pragma("_Pragma(#x)"));
  EXPECT_FALSE(starts_with_loop_pragma("#pragma once\n"));
  EXPECT_FALSE(starts_with_loop_pragma("_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")"));
}

}  // namespace
}  // namespace stark
