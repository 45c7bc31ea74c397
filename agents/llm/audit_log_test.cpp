#include "agents/llm/audit_log.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "agents/llm/testing/test_support.h"
#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark::llm {
namespace {

using nlohmann::json;
using stark::testing::TempDir;

// The client under the audit: answers with whatever the test says.
class Inner final : public ChatClient {
 public:
  explicit Inner(std::function<Expected<ChatReply>(const ChatRequest&)> answer) : answer_(std::move(answer)) {}
  Expected<ChatReply> complete(const ChatRequest& r) override { return answer_(r); }

 private:
  std::function<Expected<ChatReply>(const ChatRequest&)> answer_;
};

ChatRequest request(const std::string& role, const std::string& content = "the kernel") {
  ChatRequest r;
  r.role_name = role;
  r.model = "m1";
  r.system = "sys";
  r.messages = {{"user", content}};
  r.temperature = 0.1;
  r.max_tokens = 100;
  return r;
}

json read(const std::filesystem::path& p) {
  auto j = read_json_file(p);
  EXPECT_TRUE(j) << p;
  return j ? *j : json();
}

TEST(AuditLog, EveryRequestAndOutcomeIsANumberedFile) {
  TempDir dir;
  int call = 0;
  auto inner = std::make_shared<Inner>([&](const ChatRequest&) -> Expected<ChatReply> {
    ++call;
    if (call == 2) return Error{"HTTP 500 after 5 attempts"};
    ChatReply r;
    r.text = "reply " + std::to_string(call);
    r.prompt_tokens = 40;
    r.completion_tokens = 10;
    r.cost_usd = 0.0012;
    r.cached = call == 3;
    return r;
  });
  AuditingClient client(inner, std::make_shared<AuditLog>(dir.path()), "openai", "http://127.0.0.1:1/v1");
  EXPECT_TRUE(client.complete(request("plan")));
  EXPECT_FALSE(client.complete(request("code")));
  EXPECT_TRUE(client.complete(request("debug")));

  json plan = read(dir / "000001-plan.json");
  EXPECT_EQ(plan["schema"], "stark.llm_audit/1");
  EXPECT_EQ(plan["status"], "ok");
  EXPECT_EQ(plan["role"], "plan");
  EXPECT_EQ(plan["backend"], "openai");
  EXPECT_EQ(plan["model"], "m1");
  EXPECT_EQ(plan["request"]["system"], "sys");
  EXPECT_EQ(plan["request"]["messages"][0]["content"], "the kernel");
  EXPECT_EQ(plan["request"]["temperature"], 0.1);
  EXPECT_EQ(plan["reply"]["text"], "reply 1");
  EXPECT_EQ(plan["reply"]["prompt_tokens"], 40);
  EXPECT_EQ(plan["reply"]["cost_usd"], 0.0012);
  EXPECT_EQ(plan["cache_hit"], false);
  EXPECT_TRUE(plan["duration_ms"].is_number_integer());
  EXPECT_TRUE(plan["started_at"].get<std::string>().ends_with("Z"));

  json code = read(dir / "000002-code.json");
  EXPECT_EQ(code["status"], "error");
  EXPECT_EQ(code["error"], "HTTP 500 after 5 attempts");
  EXPECT_FALSE(code.contains("reply"));

  json debug = read(dir / "000003-debug.json");
  EXPECT_EQ(debug["cache_hit"], true);
}

TEST(AuditLog, TheRequestIsOnDiskBeforeItIsSent) {
  TempDir dir;
  json seen;
  auto inner = std::make_shared<Inner>([&](const ChatRequest&) -> Expected<ChatReply> {
    seen = read(dir / "000001-plan.json");
    return ChatReply{};
  });
  AuditingClient client(inner, std::make_shared<AuditLog>(dir.path()), "anthropic", "https://api.anthropic.com");
  ASSERT_TRUE(client.complete(request("plan")));
  EXPECT_EQ(seen["status"], "in_flight");
  EXPECT_EQ(seen["request"]["messages"][0]["content"], "the kernel");
  EXPECT_EQ(read(dir / "000001-plan.json")["status"], "ok");
}

TEST(AuditLog, NothingIsSentWhenTheAuditCannotBeWritten) {
  TempDir dir;
  ASSERT_TRUE(write_file_atomic(dir / "blocker", "a file where the audit folder should be"));
  bool sent = false;
  auto inner = std::make_shared<Inner>([&](const ChatRequest&) -> Expected<ChatReply> {
    sent = true;
    return ChatReply{};
  });
  AuditingClient client(inner, std::make_shared<AuditLog>(dir / "blocker" / "audit"), "openai", "x");
  auto reply = client.complete(request("plan"));
  ASSERT_FALSE(reply);
  EXPECT_FALSE(sent);
  EXPECT_NE(reply.error().message.find("audit"), std::string::npos) << reply.error().message;
}

TEST(AuditLog, NumbersContinueAfterAnEarlierRun) {
  TempDir dir;
  auto inner = std::make_shared<Inner>([](const ChatRequest&) -> Expected<ChatReply> { return ChatReply{}; });
  {
    AuditingClient first(inner, std::make_shared<AuditLog>(dir.path()), "command", "./answer.sh");
    ASSERT_TRUE(first.complete(request("plan")));
    ASSERT_TRUE(first.complete(request("code")));
  }
  AuditingClient resumed(inner, std::make_shared<AuditLog>(dir.path()), "command", "./answer.sh");
  ASSERT_TRUE(resumed.complete(request("debug")));
  EXPECT_TRUE(std::filesystem::exists(dir / "000003-debug.json"));
  EXPECT_TRUE(std::filesystem::exists(dir / "000001-plan.json"));
}

TEST(AuditLog, SecretsAreScrubbedFromEverythingWritten) {
  TempDir dir;
  const std::string key = "sk-audit-secret-0042";
  auto inner = std::make_shared<Inner>(
      [&](const ChatRequest&) -> Expected<ChatReply> { return Error{"server said: bad key " + key}; });
  AuditingClient client(inner, std::make_shared<AuditLog>(dir.path(), std::vector<std::string>{key}), "openai", "x");
  EXPECT_FALSE(client.complete(request("plan", "a prompt that quotes " + key)));
  EXPECT_TRUE(testing::files_containing(dir.path(), key).empty());
  EXPECT_EQ(testing::files_containing(dir.path(), "[redacted]").size(), 1u);
}

TEST(AuditLog, ParallelCallsGetDistinctNumbers) {
  TempDir dir;
  auto inner = std::make_shared<Inner>([](const ChatRequest&) -> Expected<ChatReply> { return ChatReply{}; });
  AuditingClient client(inner, std::make_shared<AuditLog>(dir.path()), "openai", "x");
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] {
      for (int k = 0; k < 5; ++k) ASSERT_TRUE(client.complete(request("code")));
    });
  for (auto& t : threads) t.join();
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    ++files;
    EXPECT_EQ(read(e.path())["status"], "ok") << e.path();
  }
  EXPECT_EQ(files, 40);
  EXPECT_TRUE(std::filesystem::exists(dir / "000040-code.json"));
}

}  // namespace
}  // namespace stark::llm
