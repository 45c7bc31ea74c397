#include "agents/llm/openai_client.h"

#include <gtest/gtest.h>

#include <thread>

#include "agents/llm/retry.h"
#include "agents/llm/testing/fake_llm_server.h"
#include "agents/llm/testing/test_support.h"

namespace stark::llm {
namespace {

using namespace std::chrono_literals;
using testing::FakeLlmServer;
using testing::FakeServerConfig;
using testing::Scripted;

const std::vector<std::pair<std::string, std::string>> kJson = {{"Content-Type", "application/json"}};

ChatRequest request(const std::string& model, std::optional<double> temperature = 0.1) {
  ChatRequest r;
  r.role_name = "code";
  r.model = model;
  r.system = "You write CUDA kernels.";
  r.messages = {{"user", "Make this kernel faster."}};
  r.temperature = temperature;
  r.max_tokens = 300;
  return r;
}

struct Fixture : ::testing::Test {
  std::shared_ptr<testing::RecordedWaits> waits = std::make_shared<testing::RecordedWaits>();

  OpenAiOptions options(const FakeLlmServer& server, std::optional<std::string> key = std::nullopt, int attempts = 4) {
    OpenAiOptions o;
    o.base_url = server.openai_base();
    o.api_key = std::move(key);
    o.retry = testing::recording_policy(waits, attempts);
    o.timeouts.connect = 2s;
    o.timeouts.total = 5s;
    return o;
  }
};

using OpenAiClientTest = Fixture;

TEST_F(OpenAiClientTest, SendsTheDocumentedRequestAndReadsTheReply) {
  FakeLlmServer server(FakeServerConfig().key("sk-local-test"));
  server.script({200, kJson, testing::openai_completion("__global__ void k() {}", "stop", 120, 45)});
  OpenAiClient client(options(server, "sk-local-test"));
  auto reply = client.complete(request("qwen2.5-coder:32b"));
  ASSERT_TRUE(reply) << reply.error().message;

  EXPECT_EQ(reply->text, "__global__ void k() {}");
  EXPECT_EQ(reply->prompt_tokens, 120);
  EXPECT_EQ(reply->completion_tokens, 45);
  EXPECT_FALSE(reply->truncated);
  EXPECT_FALSE(reply->cached);
  EXPECT_EQ(reply->cost_usd, std::nullopt);  // a local server: no list price

  auto got = server.received();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].path, "/v1/chat/completions");
  EXPECT_EQ(got[0].headers["authorization"], "Bearer sk-local-test");
  EXPECT_EQ(got[0].headers["content-type"], "application/json");
  const auto& body = got[0].json;
  EXPECT_EQ(body["model"], "qwen2.5-coder:32b");
  ASSERT_EQ(body["messages"].size(), 2u);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][0]["content"], "You write CUDA kernels.");
  EXPECT_EQ(body["messages"][1]["role"], "user");
  EXPECT_EQ(body["max_tokens"], 300);  // local servers read max_tokens
  EXPECT_FALSE(body.contains("max_completion_tokens"));
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.1);
  EXPECT_FALSE(body.contains("role_name"));
  EXPECT_FALSE(body.contains("code"));

  ASSERT_TRUE(reply->wire);
  EXPECT_EQ(reply->wire->url, server.openai_base() + "/chat/completions");
  EXPECT_EQ(reply->wire->attempts, 1);
  EXPECT_EQ(reply->wire->status, 200);
  bool redacted = false;
  for (const auto& h : reply->wire->request_headers) {
    EXPECT_EQ(h.find("sk-local-test"), std::string::npos) << h;
    redacted = redacted || h == "Authorization: [redacted]";
  }
  EXPECT_TRUE(redacted);
}

TEST_F(OpenAiClientTest, NoKeyNoAuthorizationHeader) {
  FakeLlmServer server;
  OpenAiClient client(options(server));
  ASSERT_TRUE(client.complete(request("llama3.1:8b")));
  EXPECT_EQ(server.received()[0].headers.count("authorization"), 0u);
}

TEST_F(OpenAiClientTest, ReasoningModelsGetNoTemperatureAndMaxCompletionTokens) {
  FakeLlmServer server(
      FakeServerConfig().reject_temperature({"o3-mini", "gpt-5.4"}).reject_max_tokens({"o3-mini", "gpt-5.4"}));
  OpenAiClient client(options(server));
  for (const char* model : {"o3-mini", "gpt-5.4"}) {
    auto reply = client.complete(request(model, 0.8));
    ASSERT_TRUE(reply) << reply.error().message;
  }
  auto got = server.received();
  ASSERT_EQ(got.size(), 2u);  // nothing was rejected: no fallback round trips
  for (const auto& r : got) {
    EXPECT_FALSE(r.json.contains("temperature")) << r.body;
    EXPECT_FALSE(r.json.contains("max_tokens")) << r.body;
    EXPECT_EQ(r.json["max_completion_tokens"], 300);
  }
}

TEST_F(OpenAiClientTest, TemperatureRejectedRetriesOnceWithoutItAndRemembers) {
  FakeLlmServer server(FakeServerConfig().reject_temperature({"house-reasoner"}));
  OpenAiClient client(options(server));
  auto first = client.complete(request("house-reasoner", 0.8));
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->wire->attempts, 2);
  auto second = client.complete(request("house-reasoner", 0.8));
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->wire->attempts, 1);
  // Each reply says its temperature was not applied (the search records it per node).
  EXPECT_TRUE(first->temperature_dropped);
  EXPECT_TRUE(second->temperature_dropped);

  auto got = server.received();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_DOUBLE_EQ(got[0].json["temperature"].get<double>(), 0.8);
  EXPECT_FALSE(got[1].json.contains("temperature"));
  EXPECT_FALSE(got[2].json.contains("temperature"));  // remembered for the model
  // Another model still gets its temperature.
  auto other = client.complete(request("other-model", 0.8));
  ASSERT_TRUE(other);
  EXPECT_FALSE(other->temperature_dropped);
  EXPECT_TRUE(server.received().back().json.contains("temperature"));
}

TEST_F(OpenAiClientTest, MaxTokensRejectedSwitchesToMaxCompletionTokens) {
  FakeLlmServer server(FakeServerConfig().reject_max_tokens({"proxied-reasoner"}));
  OpenAiClient client(options(server));
  ASSERT_TRUE(client.complete(request("proxied-reasoner")));
  auto got = server.received();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].json["max_tokens"], 300);
  EXPECT_EQ(got[1].json["max_completion_tokens"], 300);
  EXPECT_FALSE(got[1].json.contains("max_tokens"));
}

TEST_F(OpenAiClientTest, RateLimitedHonoursRetryAfterThenSucceeds) {
  FakeLlmServer server;
  server.script({429,
                 {{"Content-Type", "application/json"}, {"Retry-After", "3"}},
                 testing::openai_error("Rate limit reached for requests", "requests", "", "rate_limit_exceeded")});
  server.script({200, kJson, testing::openai_completion("ok")});
  OpenAiClient client(options(server));
  auto reply = client.complete(request("local"));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "ok");
  EXPECT_EQ(reply->wire->attempts, 2);
  EXPECT_EQ(server.count(), 2);
  EXPECT_EQ(waits->get(), std::vector<std::chrono::milliseconds>{3000ms});
}

TEST_F(OpenAiClientTest, RetryAfterMillisecondsHeaderWins) {
  FakeLlmServer server;
  server.script(
      {429, {{"retry-after-ms", "250"}, {"Retry-After", "9"}}, testing::openai_error("slow down", "requests")});
  OpenAiClient client(options(server));
  ASSERT_TRUE(client.complete(request("local")));
  EXPECT_EQ(waits->get(), std::vector<std::chrono::milliseconds>{250ms});
}

TEST_F(OpenAiClientTest, RetryAfterDateBeyondTheLimitIsNotWaitedFor) {
  FakeLlmServer server;
  server.script(
      {429, {{"Retry-After", "Fri, 31 Dec 2100 23:59:59 GMT"}}, testing::openai_error("come back later", "requests")});
  OpenAiClient client(options(server));
  auto reply = client.complete(request("local"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("asked to wait"), std::string::npos) << reply.error().message;
  EXPECT_NE(reply.error().message.find("come back later"), std::string::npos);
  EXPECT_EQ(server.count(), 1);
  EXPECT_TRUE(waits->get().empty());
}

TEST_F(OpenAiClientTest, ServerErrorsBackOffWithSeededJitterThenSucceed) {
  FakeLlmServer server;
  server.script(
      {500, kJson, testing::openai_error("The server had an error while processing your request.", "server_error")});
  server.script({503, kJson, testing::openai_error("Slow Down", "server_error")});
  server.script({200, kJson, testing::openai_completion("third time")});
  OpenAiClient client(options(server));
  auto reply = client.complete(request("local"));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "third time");
  EXPECT_EQ(server.count(), 3);
  Backoff expected(testing::recording_policy(waits));
  std::vector<std::chrono::milliseconds> want = {expected.delay(1), expected.delay(2)};
  EXPECT_EQ(waits->get(), want);
}

TEST_F(OpenAiClientTest, ServerErrorsOutlastingTheAttemptsAreOneLine) {
  FakeLlmServer server;
  for (int i = 0; i < 3; ++i)
    server.script({502, kJson, testing::openai_error("Bad gateway\nupstream\tdown", "server_error")});
  OpenAiClient client(options(server, std::nullopt, 3));
  auto reply = client.complete(request("local"));
  ASSERT_FALSE(reply);
  const std::string& m = reply.error().message;
  EXPECT_NE(m.find("HTTP 502 after 3 attempts"), std::string::npos) << m;
  EXPECT_NE(m.find("Bad gateway upstream down"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
  EXPECT_EQ(server.count(), 3);
}

TEST_F(OpenAiClientTest, TimeoutIsRetried) {
  FakeLlmServer server;
  server.script({200, kJson, testing::openai_completion("too late"), 3000ms});
  server.script({200, kJson, testing::openai_completion("in time")});
  auto o = options(server);
  o.timeouts.total = 300ms;
  OpenAiClient client(o);
  auto reply = client.complete(request("local"));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "in time");
  EXPECT_EQ(server.count(), 2);
  EXPECT_EQ(waits->get().size(), 1u);
}

// --llm-timeout bounds the whole call: a hung endpoint is not waited for
// attempt after attempt.
TEST_F(OpenAiClientTest, TheCallLimitBoundsEveryAttemptTogether) {
  FakeLlmServer server;
  for (int i = 0; i < 5; ++i) server.script({200, kJson, testing::openai_completion("too late"), 3000ms});
  auto o = options(server);
  o.timeouts.total = 60s;
  o.retry.call_limit = 400ms;
  OpenAiClient client(o);
  auto start = std::chrono::steady_clock::now();
  auto reply = client.complete(request("local"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("before the call's time ran out (--llm-timeout 0.4 s)"), std::string::npos)
      << reply.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2500ms);  // not the server's 3 s, let alone 5 x 60 s
}

// A kernel's --time-limit reaches into a call in progress.
TEST_F(OpenAiClientTest, TheCallersDeadlineCutsACallShort) {
  FakeLlmServer server;
  for (int i = 0; i < 5; ++i) server.script({200, kJson, testing::openai_completion("too late"), 3000ms});
  auto o = options(server);
  o.timeouts.total = 60s;
  OpenAiClient client(o);
  auto r = request("local");
  r.deadline = std::chrono::steady_clock::now() + 300ms;
  auto reply = client.complete(r);
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("the kernel's --time-limit"), std::string::npos) << reply.error().message;
}

TEST_F(OpenAiClientTest, DeadEndpointAfterRetries) {
  OpenAiOptions o;
  o.base_url = "http://127.0.0.1:" + std::to_string(testing::closed_port()) + "/v1";
  o.retry = testing::recording_policy(waits, 3);
  OpenAiClient client(o);
  auto reply = client.complete(request("local"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("cannot reach " + o.base_url + "/chat/completions after 3 attempts"),
            std::string::npos)
      << reply.error().message;
  EXPECT_EQ(waits->get().size(), 2u);
}

TEST_F(OpenAiClientTest, InvalidJsonIsNotRetried) {
  FakeLlmServer server;
  server.script({200, {{"Content-Type", "text/html"}}, "<html><body>502 Bad Gateway</body></html>"});
  OpenAiClient client(options(server));
  auto reply = client.complete(request("local"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("invalid JSON from"), std::string::npos) << reply.error().message;
  EXPECT_NE(reply.error().message.find("<html>"), std::string::npos);
  EXPECT_EQ(server.count(), 1);
}

// A server that streams gigabytes must not fill the memory.
TEST_F(OpenAiClientTest, AReplyLargerThanTheLimitIsRefused) {
  FakeLlmServer server;
  server.script({200, kJson, testing::openai_completion(std::string(kMaxResponseBytes, 'x'))});
  OpenAiClient client(options(server));
  auto reply = client.complete(request("local"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("sent a reply larger than 16 MiB; it was refused"), std::string::npos)
      << reply.error().message;
  EXPECT_EQ(server.count(), 1);  // not retried
}

TEST_F(OpenAiClientTest, JsonWithoutChoicesIsInvalid) {
  FakeLlmServer server;
  server.script({200, kJson, R"({"id": "x", "object": "chat.completion"})"});
  OpenAiClient client(options(server));
  auto reply = client.complete(request("local"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("no 'choices'"), std::string::npos) << reply.error().message;
}

TEST_F(OpenAiClientTest, RejectedKeyNamesTheVariableAndNeverTheKey) {
  FakeLlmServer server(FakeServerConfig().key("sk-right"));
  OpenAiClient client(options(server, "sk-wrong-SECRET-123"));
  auto reply = client.complete(request("local"));
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().message,
            "the API rejected the key in OPENAI_API_KEY (HTTP 401 from " + server.openai_base() + "/chat/completions)");
  EXPECT_EQ(server.count(), 1);  // a bad key is not retried
}

TEST_F(OpenAiClientTest, MissingKeyForAServerThatWantsOne) {
  FakeLlmServer server(FakeServerConfig().key("sk-right"));
  OpenAiClient client(options(server));
  auto reply = client.complete(request("local"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("requires an API key (HTTP 401): set OPENAI_API_KEY"), std::string::npos)
      << reply.error().message;
}

TEST_F(OpenAiClientTest, UnknownModel) {
  FakeLlmServer server(FakeServerConfig().known({"gpt-5.4"}));
  OpenAiClient client(options(server));
  auto reply = client.complete(request("gpt-9-imaginary"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("the API does not know model 'gpt-9-imaginary' (HTTP 404"), std::string::npos)
      << reply.error().message;
  EXPECT_EQ(server.count(), 1);
}

TEST_F(OpenAiClientTest, ReplyCutAtMaxTokensIsTruncated) {
  FakeLlmServer server;
  server.script({200, kJson, testing::openai_completion("__global__ void k() { int i =", "length", 50, 300)});
  OpenAiClient client(options(server));
  auto reply = client.complete(request("local"));
  ASSERT_TRUE(reply);
  EXPECT_TRUE(reply->truncated);
  EXPECT_EQ(reply->completion_tokens, 300);
}

TEST_F(OpenAiClientTest, ExhaustedQuotaIsNotRetried) {
  FakeLlmServer server;
  server.script({429, kJson,
                 testing::openai_error("You exceeded your current quota, please check your plan and billing details.",
                                       "insufficient_quota", "", "insufficient_quota")});
  OpenAiClient client(options(server));
  auto reply = client.complete(request("local"));
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("quota or spend limit"), std::string::npos) << reply.error().message;
  EXPECT_EQ(server.count(), 1);
}

TEST_F(OpenAiClientTest, ListPricesGiveTheCostIncludingCachedTokens) {
  FakeLlmServer server;
  server.script({200, kJson, testing::openai_completion("x", "stop", 100'000, 10'000, 40'000)});
  auto o = options(server);
  o.list_prices = true;  // as on api.openai.com
  OpenAiClient client(o);
  auto reply = client.complete(request("gpt-5.4"));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->cached_prompt_tokens, 40'000);
  ASSERT_TRUE(reply->cost_usd);
  EXPECT_NEAR(*reply->cost_usd, 60'000 * 2.5 / 1e6 + 40'000 * 0.25 / 1e6 + 10'000 * 15.0 / 1e6, 1e-12);
}

TEST_F(OpenAiClientTest, AtMostNRequestsInFlight) {
  FakeLlmServer server;
  server.hold(2, 1000ms);
  auto o = options(server);
  o.concurrency = 2;
  OpenAiClient client(o);
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 6; ++i)
    threads.emplace_back([&] {
      if (client.complete(request("local"))) ++ok;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok, 6);
  EXPECT_EQ(server.count(), 6);
  EXPECT_EQ(server.max_in_flight(), 2);
}

TEST_F(OpenAiClientTest, OfficialEndpointIsRecognised) {
  OpenAiOptions o;
  EXPECT_TRUE(OpenAiClient(o).official());
  o.base_url = "http://localhost:11434/v1/";
  OpenAiClient local(o);
  EXPECT_FALSE(local.official());
  EXPECT_EQ(local.url(), "http://localhost:11434/v1/chat/completions");
}

}  // namespace
}  // namespace stark::llm
