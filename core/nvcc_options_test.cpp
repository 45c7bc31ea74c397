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

}  // namespace
}  // namespace stark
