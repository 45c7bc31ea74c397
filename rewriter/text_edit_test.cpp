#include "rewriter/text_edit.h"

#include <gtest/gtest.h>

namespace stark::rewriter {
namespace {

TEST(TextEdit, LineOf) {
  EXPECT_EQ(line_of("a\nb\nc", 0), 1);
  EXPECT_EQ(line_of("a\nb\nc", 2), 2);
  EXPECT_EQ(line_of("a\nb\nc", 4), 3);
}

}  // namespace
}  // namespace stark::rewriter
