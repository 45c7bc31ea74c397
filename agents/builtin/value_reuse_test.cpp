#include "agents/builtin/value_reuse.h"

#include <gtest/gtest.h>

namespace stark::builtin {
namespace {

const std::string kElement = "row[k]";

/// Nothing changes between passes: only the rules on the passes themselves apply.
bool always(const std::string&, size_t, size_t) { return true; }

TEST(ValueReuse, SoftmaxComputesEachExponentialOnce) {
  std::vector<std::string> passes = {
      "max_value = fmaxf(max_value, row[k]);", "sum += expf(row[k] - max_value);",
      "out[c] = expf( row[k]-max_value ) / sum;",  // spelled differently, the same call
  };
  std::vector<std::pair<std::string, std::pair<size_t, size_t>>> asked;
  auto reused = reuse_costly_call(passes, kElement, [&](const std::string& id, size_t first, size_t last) {
    asked.push_back({id, {first, last}});
    return true;
  });
  ASSERT_TRUE(reused);
  EXPECT_EQ((*reused)[0], passes[0]);  // before the storing pass: reads the raw element
  EXPECT_EQ((*reused)[1], "sum += (row[k] = expf(row[k] - max_value));");
  EXPECT_EQ((*reused)[2], "out[c] = row[k] / sum;");
  // Only the call's own reads are asked about, over the passes that store and reuse.
  ASSERT_EQ(asked.size(), 1u);
  EXPECT_EQ(asked[0].first, "max_value");
  EXPECT_EQ(asked[0].second, (std::pair<size_t, size_t>{1, 2}));
}

TEST(ValueReuse, LeavesPassesAloneWhenTheValueCouldDiffer) {
  // The maximum changes between the passes (an online softmax).
  EXPECT_FALSE(reuse_costly_call({"s += expf(row[k] - m);", "y = expf(row[k] - m);"}, kElement,
                                 [](const std::string& id, size_t, size_t) { return id != "m"; }));
  // A later pass reads the raw element, which the store would have replaced.
  EXPECT_FALSE(reuse_costly_call({"s += expf(row[k] - m);", "y = expf(row[k] - m) + row[k];"}, kElement, always));
  // Different calls on the element.
  EXPECT_FALSE(reuse_costly_call({"s += expf(row[k] - m);", "y = expf(row[k] - n);"}, kElement, always));
  // The storing pass reads the element twice.
  EXPECT_FALSE(reuse_costly_call({"s += expf(row[k]) * row[k];", "y = expf(row[k]);"}, kElement, always));
  // Only one pass computes it: nothing to reuse.
  EXPECT_FALSE(reuse_costly_call({"m = fmaxf(m, row[k]);", "s += expf(row[k] - m);"}, kElement, always));
  // Cheap arithmetic is left as it is (layer norm).
  EXPECT_FALSE(reuse_costly_call({"s += row[k];", "d = row[k] - mean;"}, kElement, always));
  // A qualified name is not the plain call this rewrites.
  EXPECT_FALSE(reuse_costly_call({"s += std::exp(row[k]);", "y = std::exp(row[k]);"}, kElement, always));
}

TEST(ValueReuse, TheInnermostCostlyCallIsStored) {
  auto reused =
      reuse_costly_call({"s += logf(1.0f + expf(row[k]));", "y = 2.0f * logf(1.0f + expf(row[k]));"}, kElement, always);
  ASSERT_TRUE(reused);
  EXPECT_EQ((*reused)[0], "s += logf(1.0f + (row[k] = expf(row[k])));");
  EXPECT_EQ((*reused)[1], "y = 2.0f * logf(1.0f + row[k]);");
}

TEST(ValueReuse, SeesEveryWayOfWritingAVariable) {
  for (const char* text : {"m = 1;", "m += x;", "m <<= 2;", "++m;", "m--;", "p = &m;", "m.x = 2;",
                           "a[i] = m; m[i] = 0;", "update(m);", "f(a, m);"})
    EXPECT_TRUE(may_write(text, "m")) << text;
  for (const char* text : {"x = m;", "if (m == 1) y = 2;", "y = m <= 2;", "y = m >= 2 && m != 3;", "x = fmaxf(x, m);",
                           "mm = 1;", "x = a && m;", "y = expf(m);"})
    EXPECT_FALSE(may_write(text, "m")) << text;
}

}  // namespace
}  // namespace stark::builtin
