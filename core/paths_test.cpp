#include "core/paths.h"

#include <gtest/gtest.h>

namespace stark {
namespace {

TEST(Paths, DisplayPathIsRelativeInsideRoot) {
  EXPECT_EQ(display_path("/p/src/a.cu", "/p"), "src/a.cu");
  EXPECT_EQ(display_path("/p/src/../inc/a.cuh", "/p/"), "inc/a.cuh");
  EXPECT_EQ(display_path("/q/a.cu", "/p"), "/q/a.cu");
  EXPECT_EQ(display_path("/pp/a.cu", "/p"), "/pp/a.cu");
}

TEST(Paths, CommonAncestor) {
  EXPECT_EQ(common_ancestor({"/p/src/a.cu", "/p/include/x/b.h"}), "/p");
  EXPECT_EQ(common_ancestor({"/p/src/a.cu"}), "/p/src");
  EXPECT_EQ(common_ancestor({"/a/x.cu", "/b/y.cu"}), "/");
}

}  // namespace
}  // namespace stark
