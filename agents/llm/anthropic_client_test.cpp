#include "agents/llm/anthropic_client.h"

#include <gtest/gtest.h>

#include "agents/llm/testing/fake_llm_server.h"
#include "agents/llm/testing/test_support.h"

namespace stark::llm {
namespace {

using namespace std::chrono_literals;
using testing::FakeLlmServer;
using testing::FakeServerConfig;

const std::vector<std::pair<std::string, std::string>> kJson = {{"Content-Type", "application/json"}};

ChatRequest request(const std::string& model, std::optional<double> temperature = 0.8) {
  ChatRequest r;
  r.role_name = "plan";
  r.model = model;
  r.system = "You plan one CUDA optimization.";
  r.messages = {{"user", "Here is the kernel."}, {"assistant", "Which GPU?"}, {"user", "An H200."}};
  r.temperature = temperature;
  r.max_tokens = 2048;
  return r;
}

struct AnthropicClientTest : ::testing::Test {
  std::shared_ptr<testing::RecordedWaits> waits = std::make_shared<testing::RecordedWaits>();
  AnthropicOptions options(const FakeLlmServer& server, std::optional<std::string> key = std::nullopt) {
    AnthropicOptions o;
    o.base_url = server.anthropic_base();
    o.api_key = std::move(key);
    o.retry = testing::recording_policy(waits);
    o.timeouts.total = 5s;
    return o;
  }
};

TEST_F(AnthropicClientTest, SendsTheDocumentedRequestAndReadsTheReply) {
  FakeLlmServer server(FakeServerConfig().key("sk-ant-test"));
  server.script({200, kJson, testing::anthropic_message("Tile the loop in shared memory.", "end_turn", 900, 120)});
  AnthropicClient client(options(server, "sk-ant-test"));
  auto reply = client.complete(request("claude-sonnet-4-6"));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "Tile the loop in shared memory.");
  EXPECT_EQ(reply->prompt_tokens, 900);
  EXPECT_EQ(reply->completion_tokens, 120);
  EXPECT_FALSE(reply->truncated);
  EXPECT_EQ(reply->cost_usd, std::nullopt);

  auto got = server.received();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].path, "/v1/messages");
  EXPECT_EQ(got[0].headers["x-api-key"], "sk-ant-test");
  EXPECT_EQ(got[0].headers["anthropic-version"], "2023-06-01");
  EXPECT_EQ(got[0].headers["content-type"], "application/json");
  EXPECT_EQ(got[0].headers.count("authorization"), 0u);
  const auto& body = got[0].json;
  EXPECT_EQ(body["model"], "claude-sonnet-4-6");
  EXPECT_EQ(body["max_tokens"], 2048);
  EXPECT_EQ(body["system"], "You plan one CUDA optimization.");
  ASSERT_EQ(body["messages"].size(), 3u);
  EXPECT_EQ(body["messages"][0]["role"], "user");
  EXPECT_EQ(body["messages"][1]["role"], "assistant");
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.8);

  bool redacted = false;
  for (const auto& h : reply->wire->request_headers) {
    EXPECT_EQ(h.find("sk-ant-test"), std::string::npos) << h;
    redacted = redacted || h == "x-api-key: [redacted]";
  }
  EXPECT_TRUE(redacted);
}

TEST_F(AnthropicClientTest, BaseUrlWithV1AndSlashStillReachesMessages) {
  FakeLlmServer server;
  auto o = options(server);
  o.base_url = server.anthropic_base() + "/v1/";
  AnthropicClient client(o);
  ASSERT_TRUE(client.complete(request("claude-haiku-4-5")));
  EXPECT_EQ(server.received()[0].path, "/v1/messages");
}

TEST_F(AnthropicClientTest, NoSystemPromptNoSystemField) {
  FakeLlmServer server;
  AnthropicClient client(options(server));
  auto r = request("claude-haiku-4-5");
  r.system.clear();
  ASSERT_TRUE(client.complete(r));
  EXPECT_FALSE(server.received()[0].json.contains("system"));
}

TEST_F(AnthropicClientTest, NewerClaudeModelsGetNoTemperature) {
  FakeLlmServer server(FakeServerConfig().reject_temperature({"claude-opus-4-7", "claude-sonnet-5-5"}));
  AnthropicClient client(options(server));
  ASSERT_TRUE(client.complete(request("claude-opus-4-7")));
  ASSERT_TRUE(client.complete(request("claude-sonnet-5-5")));
  auto got = server.received();
  ASSERT_EQ(got.size(), 2u);
  for (const auto& r : got) EXPECT_FALSE(r.json.contains("temperature")) << r.body;
}

TEST_F(AnthropicClientTest, DeprecatedTemperatureRetriesOnceWithoutAndRemembers) {
  FakeLlmServer server(FakeServerConfig().reject_temperature({"claude-next-preview"}));
  AnthropicClient client(options(server));
  auto first = client.complete(request("claude-next-preview"));
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->wire->attempts, 2);
  ASSERT_TRUE(client.complete(request("claude-next-preview")));
  auto got = server.received();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_TRUE(got[0].json.contains("temperature"));
  EXPECT_FALSE(got[1].json.contains("temperature"));
  EXPECT_FALSE(got[2].json.contains("temperature"));
}

TEST_F(AnthropicClientTest, OverloadedWithRetryAfterThenSuccess) {
  FakeLlmServer server;
  server.script({529, {{"retry-after", "2"}}, testing::anthropic_error("overloaded_error", "Overloaded")});
  server.script({200, kJson, testing::anthropic_message("fine now")});
  AnthropicClient client(options(server));
  auto reply = client.complete(request("claude-haiku-4-5"));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "fine now");
  EXPECT_EQ(waits->get(), std::vector<std::chrono::milliseconds>{2000ms});
}

TEST_F(AnthropicClientTest, StopAtMaxTokensIsTruncated) {
  FakeLlmServer server;
  server.script({200, kJson, testing::anthropic_message("__global__ void k(", "max_tokens", 10, 2048)});
  AnthropicClient client(options(server));
  auto reply = client.complete(request("claude-haiku-4-5"));
  ASSERT_TRUE(reply);
  EXPECT_TRUE(reply->truncated);
}

TEST_F(AnthropicClientTest, TextBlocksAreJoinedOtherBlocksIgnored) {
  FakeLlmServer server;
  server.script({200, kJson, R"({"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
    "content": [{"type": "thinking", "thinking": "secret plan", "signature": "abc"},
                {"type": "text", "text": "first half, "}, {"type": "text", "text": "second half"}],
    "stop_reason": "end_turn", "stop_sequence": null,
    "usage": {"input_tokens": 5, "cache_read_input_tokens": 20, "output_tokens": 9}})"});
  AnthropicClient client(options(server));
  auto reply = client.complete(request("claude-haiku-4-5"));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "first half, second half");
  EXPECT_EQ(reply->prompt_tokens, 25);
  EXPECT_EQ(reply->cached_prompt_tokens, 20);
}

TEST_F(AnthropicClientTest, RejectedKey) {
  FakeLlmServer server(FakeServerConfig().key("sk-ant-right"));
  AnthropicClient client(options(server, "sk-ant-wrong"));
  auto reply = client.complete(request("claude-haiku-4-5"));
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().message, "the API rejected the key in ANTHROPIC_API_KEY (HTTP 401 from " +
                                       server.anthropic_base() + "/v1/messages)");
  EXPECT_EQ(server.count(), 1);
}

TEST_F(AnthropicClientTest, UnknownModel) {
  FakeLlmServer server(FakeServerConfig().known({"claude-haiku-4-5"}));
  AnthropicClient client(options(server));
  auto reply = client.complete(request("claude-imaginary-9"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("does not know model 'claude-imaginary-9' (HTTP 404"), std::string::npos)
      << reply.error().message;
}

TEST_F(AnthropicClientTest, SpendLimitIsNotRetried) {
  FakeLlmServer server;
  server.script({429, kJson, R"({"type": "error", "error": {"type": "rate_limit_error",
    "message": "You have reached your specified workspace API usage limits.",
    "details": {"error_code": "enforced_spend_limit_reached"}}, "request_id": "req_1"})"});
  AnthropicClient client(options(server));
  auto reply = client.complete(request("claude-haiku-4-5"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("quota or spend limit"), std::string::npos) << reply.error().message;
  EXPECT_EQ(server.count(), 1);
  EXPECT_TRUE(waits->get().empty());
}

TEST_F(AnthropicClientTest, InvalidJson) {
  FakeLlmServer server;
  server.script({200, kJson, R"({"type": "message", "content": [)"});
  AnthropicClient client(options(server));
  auto reply = client.complete(request("claude-haiku-4-5"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("invalid JSON from " + server.anthropic_base() + "/v1/messages (HTTP 200)"),
            std::string::npos)
      << reply.error().message;
}

TEST_F(AnthropicClientTest, ListPricesGiveTheCost) {
  FakeLlmServer server;
  server.script({200, kJson, testing::anthropic_message("x", "end_turn", 1000, 500)});
  auto o = options(server);
  o.list_prices = true;  // as on api.anthropic.com
  AnthropicClient client(o);
  auto reply = client.complete(request("claude-sonnet-4-6"));
  ASSERT_TRUE(reply);
  ASSERT_TRUE(reply->cost_usd);
  EXPECT_DOUBLE_EQ(*reply->cost_usd, 1000 * 3.0 / 1e6 + 500 * 15.0 / 1e6);
}

TEST_F(AnthropicClientTest, RequestsTheApiWouldRejectAreRefusedBeforeSending) {
  FakeLlmServer server;
  AnthropicClient client(options(server));
  auto r = request("claude-haiku-4-5");
  r.messages = {{"system", "not a message role"}};
  auto reply = client.complete(r);
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("role 'system'"), std::string::npos);
  r = request("claude-haiku-4-5");
  r.max_tokens = 0;
  EXPECT_FALSE(client.complete(r));
  EXPECT_EQ(server.count(), 0);
}

}  // namespace
}  // namespace stark::llm
