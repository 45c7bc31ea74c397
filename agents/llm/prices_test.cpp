#include "agents/llm/prices.h"

#include <gtest/gtest.h>

#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark::llm {
namespace {

TEST(Prices, BuiltinTableLoadsWithSourcesForEveryEntry) {
  const PriceTable& t = PriceTable::builtin();
  ASSERT_GE(t.models().size(), 10u);
  bool openai = false, anthropic = false;
  for (const auto& m : t.models()) {
    EXPECT_FALSE(m.source.empty()) << m.model;
    EXPECT_FALSE(m.as_of.empty()) << m.model;
    EXPECT_GT(m.input, 0) << m.model;
    EXPECT_GT(m.output, m.input) << m.model;  // output costs more than input for every listed model
    openai = openai || m.provider == "openai";
    anthropic = anthropic || m.provider == "anthropic";
  }
  EXPECT_TRUE(openai);
  EXPECT_TRUE(anthropic);
}

TEST(Prices, CostFromTokens) {
  const PriceTable& t = PriceTable::builtin();
  // claude-sonnet-4-6: $3 in, $15 out per million.
  auto c = t.cost("anthropic", "claude-sonnet-4-6", 10'000, 0, 2'000);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(*c, 10'000 * 3.0 / 1e6 + 2'000 * 15.0 / 1e6);
  // gpt-5.4: $2.50 in, $0.25 cached in, $15 out; cached tokens are part of the prompt.
  auto g = t.cost("openai", "gpt-5.4", 100'000, 40'000, 10'000);
  ASSERT_TRUE(g);
  EXPECT_NEAR(*g, 60'000 * 2.5 / 1e6 + 40'000 * 0.25 / 1e6 + 10'000 * 15.0 / 1e6, 1e-12);
}

TEST(Prices, DatedSnapshotsTakeTheirAliasPrice) {
  const PriceTable& t = PriceTable::builtin();
  ASSERT_NE(t.find("anthropic", "claude-haiku-4-5-20251001"), nullptr);
  EXPECT_EQ(t.find("anthropic", "claude-haiku-4-5-20251001")->model, "claude-haiku-4-5");
  ASSERT_NE(t.find("openai", "gpt-5.4-2026-03-05"), nullptr);
  EXPECT_EQ(t.find("openai", "gpt-5.4-2026-03-05")->model, "gpt-5.4");
  EXPECT_EQ(t.find("openai", "gpt-5.4-nano"), nullptr);  // a prefix is not the model
}

TEST(Prices, UnknownIsUnknownNeverAGuess) {
  const PriceTable& t = PriceTable::builtin();
  EXPECT_EQ(t.cost("openai", "qwen2.5-coder:32b", 100, 0, 100), std::nullopt);
  EXPECT_EQ(t.cost("anthropic", "gpt-5.4", 100, 0, 100), std::nullopt);  // provider matters
  // Past the standard-context limit a long-context rate applies: unknown.
  EXPECT_EQ(t.cost("openai", "gpt-5.4", 300'000, 0, 100), std::nullopt);
  // Cached tokens without a cached rate: unknown.
  EXPECT_EQ(t.cost("openai", "gpt-5.5-pro", 1000, 500, 100), std::nullopt);
}

TEST(Prices, FileOverrideAndErrors) {
  stark::testing::TempDir dir;
  ASSERT_TRUE(write_file_atomic(dir / "p.json", R"({"schema": "stark.prices/1", "models": [
      {"provider": "openai", "model": "house-model", "input": 1, "output": 2, "as_of": "2026-12", "source": "contract"}]})"));
  auto t = PriceTable::from_file(dir / "p.json");
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_DOUBLE_EQ(*t->cost("openai", "house-model", 1'000'000, 0, 1'000'000), 3.0);

  ASSERT_TRUE(write_file_atomic(dir / "bad.json", R"({"schema": "other"})"));
  auto bad = PriceTable::from_file(dir / "bad.json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("not a stark.prices/1 price table"), std::string::npos);

  ASSERT_TRUE(write_file_atomic(dir / "dup.json", R"({"schema": "stark.prices/1", "models": [
      {"provider": "openai", "model": "m", "input": 1, "output": 2, "as_of": "x", "source": "y"},
      {"provider": "openai", "model": "m", "input": 1, "output": 2, "as_of": "x", "source": "y"}]})"));
  EXPECT_FALSE(PriceTable::from_file(dir / "dup.json"));
}

}  // namespace
}  // namespace stark::llm
