#include "core/text.h"

#include <gtest/gtest.h>

namespace stark {
namespace {

TEST(Text, ShellSplit) {
  using V = std::vector<std::string>;
  EXPECT_EQ(shell_split("nvcc  -DA=1 -c x.cu"), (V{"nvcc", "-DA=1", "-c", "x.cu"}));
  EXPECT_EQ(shell_split(R"(a "b c" 'd "e"' f\ g "h\"i" "")"), (V{"a", "b c", "d \"e\"", "f g", "h\"i", ""}));
  EXPECT_EQ(shell_split(R"(-DNAME=\"x\")"), (V{"-DNAME=\"x\""}));
}

TEST(Text, ShellQuoteRoundTrips) {
  for (std::string s : {"plain", "with space", "it's", "a\"b", "$HOME"})
    EXPECT_EQ(shell_split(shell_quote(s)), std::vector<std::string>{s});
}

TEST(Text, SplitRespectsNesting) {
  auto parts = split("min(a, b), c[1, 2], d", ',');
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(trim(parts[1]), "c[1, 2]");
}

}  // namespace
}  // namespace stark
