#include "agents/llm/model_rules.h"

#include <gtest/gtest.h>

namespace stark::llm {
namespace {

TEST(ModelRules, OpenAiReasoningFamiliesRejectTemperature) {
  for (const char* m : {"o1", "o1-mini", "o3", "o3-mini", "o3-pro", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5.4",
                        "gpt-5.5-pro", "gpt-5.6-sol", "gpt-6-astra", "openai/o3-mini", "GPT-5.4-2026-03-05"})
    EXPECT_TRUE(openai_rejects_temperature(m)) << m;
  for (const char* m : {"gpt-4o", "gpt-4.1-mini", "gpt-3.5-turbo", "llama3.1:8b", "qwen2.5-coder", "omni-coder",
                        "Qwen/Qwen3-32B", "mistral-large"})
    EXPECT_FALSE(openai_rejects_temperature(m)) << m;
}

TEST(ModelRules, ClaudeFromOpus47OnRejectsTemperature) {
  for (const char* m : {"claude-opus-4-7", "claude-opus-4-8", "claude-opus-4-7-20260416", "claude-opus-5",
                        "claude-opus-5-5", "claude-sonnet-5", "claude-sonnet-5-5", "claude-haiku-5-5",
                        "claude-fable-5-1", "claude-mythos-5", "anthropic/claude-sonnet-5"})
    EXPECT_TRUE(anthropic_rejects_temperature(m)) << m;
  for (const char* m :
       {"claude-opus-4-6", "claude-opus-4-1-20250805", "claude-opus-4-20250514", "claude-sonnet-4-6",
        "claude-sonnet-4-5-20250929", "claude-haiku-4-5", "claude-3-5-sonnet-20241022", "my-local-model"})
    EXPECT_FALSE(anthropic_rejects_temperature(m)) << m;
}

TEST(ModelRules, OutputLimitFieldFollowsEndpointAndModel) {
  EXPECT_TRUE(openai_uses_max_completion_tokens("gpt-4o", true));
  EXPECT_TRUE(openai_uses_max_completion_tokens("o3-mini", false));
  EXPECT_FALSE(openai_uses_max_completion_tokens("qwen2.5-coder:32b", false));
}

}  // namespace
}  // namespace stark::llm
