#include "core/nvcc_options.h"

#include <gtest/gtest.h>

namespace stark {
namespace {

TEST(NvccOptions, BooleanAndListOptionsTakeTheirValueFromTheNextArgument) {
  // nvcc accepts "-ftz true" and "-Werror all-warnings": the value is the next argument.
  for (const char* o : {"-ftz",
                        "--ftz",
                        "-prec-div",
                        "-prec-sqrt",
                        "-fmad",
                        "-rdc",
                        "-Werror",
                        "--Werror",
                        "-I",
                        "--include-path",
                        "-D",
                        "-Xcompiler",
                        "-Xptxas",
                        "-ccbin",
                        "-o",
                        "-MF",
                        "-arch",
                        "-gencode",
                        "-std",
                        "-x",
                        "--options-file",
                        "-maxrregcount",
                        "-diag-suppress",
                        "-cudart"})
    EXPECT_TRUE(nvcc_takes_value(o)) << o;
}

TEST(NvccOptions, FlagsTakeNoValue) {
  // "-dlto x.cu" or "-use_fast_math -DFOO": the next argument is no value of theirs.
  for (const char* o :
       {"-c", "-G", "-g", "-lineinfo", "-use_fast_math", "--use_fast_math", "-dlto", "-arch-ls",
        "-expt-relaxed-constexpr", "-extended-lambda", "-MD", "-dc", "-cubin", "-w", "-m64", "--unknown-option", ""})
    EXPECT_FALSE(nvcc_takes_value(o)) << o;
}

// What STARK sets itself: the compile command builder and the flag
// allowlist both leave a project's own out, an option with its value (so the
// grammar must agree it has one), a flag alone.
TEST(NvccOptions, WhatStarkSetsItselfIsOneListOfOptionsAndOneOfFlags) {
  for (const char* o : {"-o", "--output-file", "-MF", "-MT", "-arch", "--gpu-architecture", "-code", "-gencode",
                        "--generate-code", "-odir"}) {
    EXPECT_TRUE(nvcc_output_option(o)) << o;
    EXPECT_TRUE(nvcc_takes_value(o)) << o;
    EXPECT_FALSE(nvcc_output_flag(o)) << o;
  }
  for (const char* f : {"-c", "--compile", "-MD", "-MMD", "-M", "-ptx", "-cubin", "--fatbin"}) {
    EXPECT_TRUE(nvcc_output_flag(f)) << f;
    EXPECT_FALSE(nvcc_takes_value(f)) << f;
    EXPECT_FALSE(nvcc_output_option(f)) << f;
  }
  for (const char* kept : {"-I", "-D", "-std", "-rdc", "-Xcompiler", "-lineinfo", "-G", "-use_fast_math"}) {
    EXPECT_FALSE(nvcc_output_option(kept)) << kept;
    EXPECT_FALSE(nvcc_output_flag(kept)) << kept;
  }
}

}  // namespace
}  // namespace stark
