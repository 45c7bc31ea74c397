#include "rewriter/kernel_source.h"

#include <gtest/gtest.h>

namespace stark::rewriter {
namespace {

struct Provenance : ::testing::Test {
  Provenance() {
    result.source_root = "/home/ana/proj";
    result.backend = {"builtin", ""};
    result.seed = 3;
    kr.id = kernel.id = "src/ops.cu:scale";
    kr.speedup = 2.0;
  }
  std::string comment() { return provenance_comment(result, kr, kernel, "  "); }
  Result result;
  KernelResult kr;
  Kernel kernel;
};

TEST_F(Provenance, ABuildInsideTheProjectIsNamedRelativeOneOutsideIsNot) {
  result.build_dir = "/home/ana/proj/build";
  EXPECT_NE(comment().find("  // STARK: reproduce with: stark optimize -p build --kernel src/ops.cu:scale"),
            std::string::npos)
      << comment();
  // Someone's scratch folder is not part of a patch others review.
  result.build_dir = "/tmp/ana-scratch/build";
  EXPECT_EQ(comment().find("/tmp"), std::string::npos) << comment();
  EXPECT_NE(comment().find("stark optimize -p BUILD --kernel"), std::string::npos) << comment();
}

TEST_F(Provenance, AssumptionsSayAssumesOnce) {
  kr.assumptions = {"assumes x, y never alias another argument", "Assumes n > 0", "n is a multiple of 4"};
  std::string c = comment();
  EXPECT_NE(c.find("// STARK: assumes x, y never alias another argument\n"), std::string::npos) << c;
  EXPECT_NE(c.find("// STARK: assumes n > 0\n"), std::string::npos) << c;
  EXPECT_NE(c.find("// STARK: assumes n is a multiple of 4\n"), std::string::npos) << c;
  EXPECT_EQ(c.find("assumes assumes"), std::string::npos) << c;
}

}  // namespace
}  // namespace stark::rewriter
