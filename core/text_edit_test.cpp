#include "core/text_edit.h"

#include <gtest/gtest.h>

namespace stark {
namespace {

TEST(TextEdit, SplicesFromTheOriginalsOffsets) {
  auto r = apply_edits("0123456789", {{7, 9, "XY", "b"}, {1, 3, "", "a"}, {5, 5, "+", "c"}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "034+56XY9");
}

TEST(TextEdit, InsertionAtTheStartOfAReplacementGoesFirst) {
  auto r = apply_edits("abcdef", {{2, 4, "XX", "replace"}, {2, 2, "//\n", "insert"}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "ab//\nXXef");
}

TEST(TextEdit, OverlapsAndOutOfRangeAreErrors) {
  auto overlap = apply_edits("abcdef", {{1, 4, "x", "kernel a"}, {3, 5, "y", "launch b"}});
  ASSERT_FALSE(overlap);
  EXPECT_NE(overlap.error().message.find("launch b overlaps kernel a"), std::string::npos) << overlap.error().message;
  EXPECT_FALSE(apply_edits("abc", {{2, 9, "x", "far"}}));
  EXPECT_FALSE(apply_edits("abc", {{2, 1, "x", "backwards"}}));
}

}  // namespace
}  // namespace stark
