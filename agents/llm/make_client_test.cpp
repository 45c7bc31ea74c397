#include "agents/llm/make_client.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "agents/llm/dry_run_client.h"
#include "agents/llm/testing/fake_llm_server.h"
#include "agents/llm/testing/test_support.h"
#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark::llm {
namespace {

using namespace std::chrono_literals;
using stark::testing::TempDir;
using testing::FakeLlmServer;
using testing::FakeServerConfig;

const std::vector<std::pair<std::string, std::string>> kJson = {{"Content-Type", "application/json"}};

ChatRequest request(const std::string& model, const std::string& role = "plan") {
  ChatRequest r;
  r.role_name = role;
  r.model = model;
  r.system = "You are the plan agent.";
  r.messages = {{"user", "__global__ void add(float* x) { x[threadIdx.x] += 1; }"}};
  r.temperature = 0.8;
  r.max_tokens = 512;
  return r;
}

ClientOptions options(std::map<std::string, std::string> env = {}) {
  ClientOptions o;
  o.env = [env](const std::string& name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
  o.retry.max_attempts = 2;
  o.retry.sleep = [](std::chrono::milliseconds) {};
  o.timeouts.total = 5s;
  return o;
}

// --max-cost can only be kept where every reply's cost is known.
TEST(MakeClient, SaysWhyACostWouldBeUnknown) {
  auto hosted = make_chat_client("anthropic", "claude-sonnet-4-5", "", "", options({{"ANTHROPIC_API_KEY", "k"}}));
  ASSERT_TRUE(hosted) << hosted.error().message;
  EXPECT_EQ(unknown_cost_reason(*hosted, {"claude-sonnet-4-5"}), std::nullopt);
  auto unlisted = unknown_cost_reason(*hosted, {"claude-sonnet-4-5", "claude-house-model"});
  ASSERT_TRUE(unlisted);
  EXPECT_NE(unlisted->find("no entry for anthropic model 'claude-house-model'"), std::string::npos) << *unlisted;

  auto local = make_chat_client("openai", "qwen", "http://127.0.0.1:9/v1", "", options());
  ASSERT_TRUE(local);
  auto why = unknown_cost_reason(*local, {"qwen"});
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("http://127.0.0.1:9/v1 is not openai's own API"), std::string::npos) << *why;

  auto command = make_chat_client("command", "", "", "cat", options());
  ASSERT_TRUE(command);
  EXPECT_TRUE(unknown_cost_reason(*command, {""}));

  // Rates given on the command line make every cost known, and are applied.
  ClientOptions priced = options();
  priced.price = TokenRates{2.0, 10.0};
  FakeLlmServer server;
  auto with_price = make_chat_client("openai", "qwen", server.openai_base(), "", priced);
  ASSERT_TRUE(with_price);
  EXPECT_EQ(unknown_cost_reason(*with_price, {"qwen"}), std::nullopt);
  auto reply = with_price->client->complete(request("qwen"));
  ASSERT_TRUE(reply) << reply.error().message;
  ASSERT_TRUE(reply->cost_usd);
  EXPECT_NEAR(*reply->cost_usd, (reply->prompt_tokens * 2.0 + reply->completion_tokens * 10.0) / 1e6, 1e-12);
  EXPECT_GT(*reply->cost_usd, 0);
}

TEST(MakeClient, HostedEndpointWithoutItsKeyIsAClearError) {
  auto openai = make_chat_client("openai", "gpt-5.4", "", "", options());
  ASSERT_FALSE(openai);
  EXPECT_EQ(openai.error().message,
            "OPENAI_API_KEY is not set: export your OpenAI API key, or pass --base-url to use a local "
            "OpenAI-compatible server");
  auto anthropic = make_chat_client("anthropic", "claude-sonnet-5-5", "https://api.anthropic.com/", "", options());
  ASSERT_FALSE(anthropic);
  EXPECT_TRUE(anthropic.error().message.starts_with("ANTHROPIC_API_KEY is not set")) << anthropic.error().message;
}

TEST(MakeClient, LocalServerNeedsNoKey) {
  FakeLlmServer server;
  auto stack = make_chat_client("openai", "llama3.1:8b", server.openai_base(), "", options());
  ASSERT_TRUE(stack) << stack.error().message;
  EXPECT_EQ(stack->base_url, server.openai_base());
  auto reply = stack->client->complete(request("llama3.1:8b"));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "default reply");
}

TEST(MakeClient, UsageErrors) {
  auto unknown = make_chat_client("gemini", "m", "", "", options());
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message, "unknown LLM backend 'gemini': expected openai, anthropic or command");
  EXPECT_FALSE(make_chat_client("command", "", "", "", options()));
  EXPECT_FALSE(make_chat_client("openai", "", "http://127.0.0.1:1/v1", "", options()));
  auto scheme = make_chat_client("openai", "m", "127.0.0.1:8000/v1", "", options());
  ASSERT_FALSE(scheme);
  EXPECT_NE(scheme.error().message.find("must start with http:// or https://"), std::string::npos);
  auto zero = options();
  zero.concurrency = 0;
  EXPECT_FALSE(make_chat_client("command", "", "", "cat", zero));
}

TEST(MakeClient, DryRunPrintsThePromptsAndSendsNothing) {
  FakeLlmServer server;
  TempDir dir;
  std::ostringstream printed;
  auto o = options();
  o.dry_run = true;
  o.dry_run_out = &printed;
  o.audit_dir = dir / "audit";
  o.cache_dir = dir / "cache";
  auto stack = make_chat_client("anthropic", "claude-opus-5-5", server.anthropic_base(), "", o);
  ASSERT_TRUE(stack) << stack.error().message;
  auto reply = stack->client->complete(request("claude-opus-5-5"));
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().message, DryRunClient::kDryRunError);
  EXPECT_EQ(server.count(), 0);

  std::string text = printed.str();
  EXPECT_NE(text.find("request 1 (plan role) for anthropic at " + server.anthropic_base()), std::string::npos) << text;
  EXPECT_NE(text.find("model 'claude-opus-5-5', temperature 0.8, max_tokens 512"), std::string::npos) << text;
  EXPECT_NE(text.find("You are the plan agent."), std::string::npos);
  EXPECT_NE(text.find("__global__ void add(float* x)"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "cache"));
  auto audit = read_json_file(dir / "audit" / "000001-plan.json");
  ASSERT_TRUE(audit);
  EXPECT_EQ((*audit)["status"], "error");
  EXPECT_EQ((*audit)["error"], DryRunClient::kDryRunError);
}

TEST(MakeClient, DryRunNeedsNoKeyEvenForAHostedEndpoint) {
  std::ostringstream printed;
  auto o = options();
  o.dry_run = true;
  o.dry_run_out = &printed;
  auto stack = make_chat_client("openai", "gpt-5.4", "", "", o);
  ASSERT_TRUE(stack) << stack.error().message;
  EXPECT_FALSE(stack->client->complete(request("gpt-5.4")));
  EXPECT_NE(printed.str().find("for openai at https://api.openai.com/v1"), std::string::npos) << printed.str();
}

TEST(MakeClient, TheKeyAppearsInNoFileItWrote) {
  const std::string key = "sk-stark-test-7f3a9c1e5b2d";
  FakeLlmServer server(FakeServerConfig().key(key));
  server.script({200, kJson, testing::openai_completion("plan: vectorize")});
  server.script({500, kJson, testing::openai_error("boom", "server_error")});
  server.script({500, kJson, testing::openai_error("boom", "server_error")});
  TempDir dir;
  auto o = options({{"OPENAI_API_KEY", key}});
  o.audit_dir = dir / "result" / "audit";
  o.cache_dir = dir / "cache";
  auto stack = make_chat_client("openai", "local-coder", server.openai_base(), "", o);
  ASSERT_TRUE(stack) << stack.error().message;

  auto first = stack->client->complete(request("local-coder"));
  ASSERT_TRUE(first) << first.error().message;
  auto again = stack->client->complete(request("local-coder"));  // from the cache
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->cached);
  auto debug = request("local-coder", "debug");
  debug.messages[0].content += " // fails to compile";
  auto failing = stack->client->complete(debug);
  ASSERT_FALSE(failing);
  EXPECT_EQ(server.count(), 3);
  for (const auto& r : server.received()) EXPECT_EQ(r.headers.at("authorization"), "Bearer " + key);

  // A wrong key whose 401 answer quotes the key it got.
  auto wrong = make_chat_client("openai", "local-coder", server.openai_base(), "", [&] {
    auto w = options({{"OPENAI_API_KEY", "sk-wrong-key-c0ffee-99"}});
    w.audit_dir = dir / "result" / "audit";
    return w;
  }());
  ASSERT_TRUE(wrong);
  auto rejected = wrong->client->complete(request("local-coder", "code"));
  ASSERT_FALSE(rejected);
  EXPECT_EQ(rejected.error().message.find("sk-wrong-key-c0ffee-99"), std::string::npos);
  EXPECT_EQ(rejected.error().message.find("c0ffee"), std::string::npos);

  EXPECT_EQ(testing::files_containing(dir.path(), key), std::vector<std::filesystem::path>{});
  EXPECT_EQ(testing::files_containing(dir.path(), "sk-wrong-key-c0ffee-99"), std::vector<std::filesystem::path>{});
  EXPECT_EQ(first->text, "plan: vectorize");
  EXPECT_EQ(failing.error().message.find(key), std::string::npos);

  // The audit shows what was sent, with the credential header redacted.
  auto record = read_json_file(dir / "result" / "audit" / "000001-plan.json");
  ASSERT_TRUE(record);
  auto headers = (*record)["reply"]["wire"]["request_headers"];
  EXPECT_NE(std::find(headers.begin(), headers.end(), "Authorization: [redacted]"), headers.end()) << headers.dump();
  EXPECT_EQ((*record)["reply"]["wire"]["url"], server.openai_base() + "/chat/completions");
  auto cached = read_json_file(dir / "result" / "audit" / "000002-plan.json");
  ASSERT_TRUE(cached);
  EXPECT_EQ((*cached)["cache_hit"], true);
}

// A proxy or a broken server may echo the request's headers in its answer,
// and a base URL may carry credentials: none of it may reach a file.
TEST(MakeClient, AServerThatEchoesTheKeyLeavesItInNoFile) {
  for (std::string backend : {"openai", "anthropic"}) {
    SCOPED_TRACE(backend);
    const std::string key = "sk-echo-test-" + backend + "-41d9";
    FakeLlmServer server(FakeServerConfig().key(key));
    bool openai = backend == "openai";
    std::string echo = openai ? "Authorization: Bearer " + key : "x-api-key: " + key;
    server.script({200, kJson, openai ? testing::openai_completion(echo) : testing::anthropic_message(echo)});
    std::string base = openai ? server.openai_base() : server.anthropic_base();
    base.insert(base.find("//") + 2, "alice:pw-in-url-77aa@");
    TempDir dir;
    auto o = options({{openai ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY", key}});
    o.audit_dir = dir / "audit";
    o.cache_dir = dir / "llm-cache";
    auto stack = make_chat_client(backend, "local-coder", base, "", o);
    ASSERT_TRUE(stack) << stack.error().message;
    auto reply = stack->client->complete(request("local-coder"));
    ASSERT_TRUE(reply) << reply.error().message;
    EXPECT_EQ(reply->text.find(key), std::string::npos) << reply->text;
    EXPECT_TRUE(stack->client->complete(request("local-coder"))->cached);
    EXPECT_EQ(server.count(), 1);
    ASSERT_FALSE(std::filesystem::is_empty(dir / "llm-cache"));
    ASSERT_FALSE(std::filesystem::is_empty(dir / "audit"));
    for (const std::string& secret : {key, std::string("pw-in-url-77aa")})
      EXPECT_EQ(testing::files_containing(dir.path(), secret), std::vector<std::filesystem::path>{}) << secret;
  }
}

TEST(MakeClient, WithoutCacheReadsEveryRequestIsSent) {
  FakeLlmServer server;
  TempDir dir;
  auto o = options();
  o.cache_dir = dir / "cache";
  auto stack = make_chat_client("openai", "m", server.openai_base(), "", o);
  ASSERT_TRUE(stack);
  ASSERT_TRUE(stack->client->complete(request("m")));
  EXPECT_TRUE(stack->client->complete(request("m"))->cached);
  o.cache_read = false;  // stark optimize --force
  auto forced = make_chat_client("openai", "m", server.openai_base(), "", o);
  ASSERT_TRUE(forced);
  auto reply = forced->client->complete(request("m"));
  ASSERT_TRUE(reply);
  EXPECT_FALSE(reply->cached);
  EXPECT_EQ(server.count(), 2);
}

TEST(MakeClient, CredentialHeadersAndUrlsAreRedacted) {
  for (const char* name : {"Authorization", "x-api-key", "api-key", "X-Goog-Api-Key", "Proxy-Authorization", "Cookie",
                           "X-Auth-Token", "OpenAI-Session"})
    EXPECT_TRUE(is_secret_header(name)) << name;
  for (const char* name : {"Content-Type", "anthropic-version", "Accept"}) EXPECT_FALSE(is_secret_header(name)) << name;
  EXPECT_EQ(redact_url("https://api.openai.com/v1"), "https://api.openai.com/v1");
  EXPECT_EQ(redact_url("http://u:p@[::1]:8080/v1?key=abc&model=x#k"),
            "http://[redacted]@[::1]:8080/v1?key=[redacted]&model=x#k");
  EXPECT_EQ(redact_url("http://token@host"), "http://[redacted]@host");
  EXPECT_EQ(redact_url("ssh me@host llm --key=k"), "ssh me@host llm --key=k");  // a command, not a URL
}

TEST(MakeClient, CommandBackendStack) {
  TempDir dir;
  auto o = options();
  o.audit_dir = dir / "audit";
  o.cache_dir = dir / "cache";
  auto stack = make_chat_client("command", "", "", "cat >/dev/null; echo from-the-command", o);
  ASSERT_TRUE(stack) << stack.error().message;
  auto reply = stack->client->complete(request(""));
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "from-the-command\n");
  EXPECT_TRUE(stack->client->complete(request(""))->cached);
  EXPECT_TRUE(std::filesystem::exists(dir / "audit" / "000002-plan.json"));
}

TEST(MakeClient, BadPriceFileIsReported) {
  FakeLlmServer server;
  auto o = options();
  o.price_file = "/nonexistent/prices.json";
  auto stack = make_chat_client("openai", "m", server.openai_base(), "", o);
  ASSERT_FALSE(stack);
  EXPECT_NE(stack.error().message.find("/nonexistent/prices.json"), std::string::npos);
}

}  // namespace
}  // namespace stark::llm
