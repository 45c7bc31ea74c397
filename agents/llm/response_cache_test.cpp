#include "agents/llm/response_cache.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agents/llm/openai_client.h"
#include "agents/llm/testing/fake_llm_server.h"
#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark::llm {
namespace {

using stark::testing::TempDir;
using testing::FakeLlmServer;

const std::vector<std::pair<std::string, std::string>> kJson = {{"Content-Type", "application/json"}};

ChatRequest request(std::optional<double> temperature = 0.1) {
  ChatRequest r;
  r.role_name = "code";
  r.model = "local-coder";
  r.system = "system prompt";
  r.messages = {{"user", "kernel source"}};
  r.temperature = temperature;
  r.max_tokens = 1000;
  return r;
}

std::shared_ptr<ChatClient> openai(const FakeLlmServer& server) {
  OpenAiOptions o;
  o.base_url = server.openai_base();
  return std::make_shared<OpenAiClient>(o);
}

TEST(ResponseCache, SecondIdenticalRequestComesFromDiskWithoutAnHttpCall) {
  FakeLlmServer server;
  server.script({200, kJson, testing::openai_completion("cached answer", "stop", 30, 20)});
  TempDir dir;
  auto cache = std::make_shared<const ResponseCache>(dir.path());
  CachingClient client(openai(server), cache, "openai", server.openai_base());

  auto first = client.complete(request());
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_FALSE(first->cached);
  EXPECT_EQ(server.count(), 1);

  auto second = client.complete(request());
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(server.count(), 1);  // no HTTP call
  EXPECT_TRUE(second->cached);
  EXPECT_EQ(second->text, "cached answer");
  EXPECT_EQ(second->prompt_tokens, 30);
  EXPECT_EQ(second->completion_tokens, 20);
  EXPECT_EQ(second->cost_usd, 0.0);  // nothing billed
  EXPECT_FALSE(second->wire);

  // A later process reading the same folder hits too.
  CachingClient later(openai(server), std::make_shared<const ResponseCache>(dir.path()), "openai",
                      server.openai_base());
  auto third = later.complete(request());
  ASSERT_TRUE(third);
  EXPECT_TRUE(third->cached);
  EXPECT_EQ(server.count(), 1);
}

TEST(ResponseCache, EveryPartOfTheRequestIsPartOfTheKey) {
  FakeLlmServer server;
  TempDir dir;
  auto cache = std::make_shared<const ResponseCache>(dir.path());
  CachingClient client(openai(server), cache, "openai", server.openai_base());
  ASSERT_TRUE(client.complete(request()));
  std::vector<ChatRequest> variants(6, request());
  variants[0].temperature = 0.8;
  variants[1].temperature.reset();
  variants[2].max_tokens = 999;
  variants[3].system += "!";
  variants[4].messages.push_back({"assistant", "more"});
  variants[4].messages.push_back({"user", "go on"});
  variants[5].model = "local-coder-2";
  for (const auto& v : variants) {
    auto reply = client.complete(v);
    ASSERT_TRUE(reply);
    EXPECT_FALSE(reply->cached);
  }
  EXPECT_EQ(server.count(), 7);
  // The role name is not: plan and debug prompts differ anyway.
  auto renamed = request();
  renamed.role_name = "debug";
  EXPECT_TRUE(client.complete(renamed)->cached);
  // Nor is the key; but the provider and the base URL are.
  auto other_url = ResponseCache::key_of("openai", "http://elsewhere/v1", request());
  EXPECT_FALSE(cache->load(other_url));
  EXPECT_FALSE(cache->load(ResponseCache::key_of("anthropic", server.openai_base(), request())));
}

TEST(ResponseCache, ErrorsAreNotCached) {
  FakeLlmServer server;
  server.script({400, kJson, testing::openai_error("bad request", "invalid_request_error")});
  server.script({200, kJson, testing::openai_completion("second try")});
  TempDir dir;
  CachingClient client(openai(server), std::make_shared<const ResponseCache>(dir.path()), "openai",
                       server.openai_base());
  EXPECT_FALSE(client.complete(request()));
  auto reply = client.complete(request());
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->text, "second try");
  EXPECT_EQ(server.count(), 2);
}

TEST(ResponseCache, AReplyTheCallerCannotUseIsNotKept) {
  FakeLlmServer server;
  server.script({200, kJson, testing::openai_completion("unusable")});
  server.script({200, kJson, testing::openai_completion("usable")});
  TempDir dir;
  auto cache = std::make_shared<const ResponseCache>(dir.path());
  CachingClient client(openai(server), cache, "openai", server.openai_base());
  ChatRequest r = request();
  r.usable = [](const ChatReply& reply) { return reply.text == "usable"; };

  auto first = client.complete(r);
  ASSERT_TRUE(first);  // returned (it was paid for), but not stored
  EXPECT_EQ(first->text, "unusable");
  EXPECT_FALSE(cache->load(ResponseCache::key_of("openai", server.openai_base(), r)));
  auto second = client.complete(r);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->text, "usable");
  EXPECT_FALSE(second->cached);
  EXPECT_TRUE(client.complete(r)->cached);
  EXPECT_EQ(server.count(), 2);

  // An entry written before the caller's check existed is a miss when it fails it.
  ChatReply old;
  old.text = "unusable";
  ASSERT_TRUE(cache->store(ResponseCache::key_of("openai", server.openai_base(), r), old));
  auto third = client.complete(r);
  ASSERT_TRUE(third);
  EXPECT_FALSE(third->cached);
  EXPECT_EQ(server.count(), 3);
}

TEST(ResponseCache, WithoutReadingEveryRequestIsSentAndRefreshesItsEntry) {
  FakeLlmServer server;
  server.script({200, kJson, testing::openai_completion("first")});
  server.script({200, kJson, testing::openai_completion("second")});
  TempDir dir;
  auto cache = std::make_shared<const ResponseCache>(dir.path());
  CachingClient fresh(openai(server), cache, "openai", server.openai_base(), /*read=*/false);
  EXPECT_EQ(fresh.complete(request())->text, "first");
  auto again = fresh.complete(request());
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->cached);
  EXPECT_EQ(again->text, "second");
  EXPECT_EQ(server.count(), 2);
  CachingClient reading(openai(server), cache, "openai", server.openai_base());
  auto hit = reading.complete(request());
  ASSERT_TRUE(hit);
  EXPECT_TRUE(hit->cached);
  EXPECT_EQ(hit->text, "second");
}

TEST(ResponseCache, AnEntryHoldsTheReplyAndAHashOfTheRequestOnly) {
  TempDir dir;
  ResponseCache cache(dir.path(), {"sk-echoed-5150"});
  ChatRequest r = request();
  auto key = ResponseCache::key_of("openai", "http://alice:pw-5150@host:8000/v1?api_key=k-5150&v=1", r);
  EXPECT_EQ(key["base_url"], "http://[redacted]@host:8000/v1?api_key=[redacted]&v=1");
  ChatReply reply;
  reply.text = "a server echoed Authorization: Bearer sk-echoed-5150";
  ASSERT_TRUE(cache.store(key, reply));
  auto entry = read_json_file(cache.path_of(key));
  ASSERT_TRUE(entry);
  std::vector<std::string> fields;
  for (const auto& [name, value] : entry->items()) fields.push_back(name);
  EXPECT_EQ(fields, (std::vector<std::string>{"key", "reply", "schema"}));
  std::string text = entry->dump();
  for (const char* absent : {"system prompt", "kernel source", "sk-echoed-5150", "pw-5150", "k-5150"})
    EXPECT_EQ(text.find(absent), std::string::npos) << absent;
  EXPECT_EQ(cache.load(key)->text, "a server echoed Authorization: Bearer [redacted]");
}

TEST(ResponseCache, DamagedEntryIsAMissAndIsRewritten) {
  FakeLlmServer server;
  TempDir dir;
  auto cache = std::make_shared<const ResponseCache>(dir.path());
  auto key = ResponseCache::key_of("openai", server.openai_base(), request());
  ASSERT_TRUE(write_file_atomic(cache->path_of(key), "{\"schema\": \"stark.llm_cache/1\", \"reply\": "));
  CachingClient client(openai(server), cache, "openai", server.openai_base());
  auto reply = client.complete(request());
  ASSERT_TRUE(reply);
  EXPECT_FALSE(reply->cached);
  EXPECT_TRUE(cache->load(key));
}

TEST(ResponseCache, AnEntryForAnotherRequestUnderTheSameNameIsAMiss) {
  TempDir dir;
  ResponseCache cache(dir.path());
  auto key = ResponseCache::key_of("openai", "http://x/v1", request());
  auto other = ResponseCache::key_of("openai", "http://x/v1", request(0.9));
  ChatReply r;
  r.text = "for the other request";
  ASSERT_TRUE(cache.store(other, r));
  // Simulate a hash collision: the other request's entry at this key's path.
  std::filesystem::rename(cache.path_of(other), cache.path_of(key));
  EXPECT_FALSE(cache.load(key));
}

TEST(ResponseCache, ConcurrentProcessesNeverSeeHalfAnEntry) {
  TempDir dir;
  auto key = ResponseCache::key_of("openai", "http://x/v1", request());
  const std::string long_text(200'000, 'k');  // big enough that a torn write would show
  std::vector<pid_t> children;
  for (int c = 0; c < 3; ++c) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ResponseCache cache(dir.path());
      ChatReply r;
      r.text = long_text + std::to_string(c);
      for (int i = 0; i < 40; ++i)
        if (!cache.store(key, r)) ::_exit(1);
      ::_exit(0);
    }
    children.push_back(pid);
  }
  ResponseCache cache(dir.path());
  int complete_reads = 0;
  for (int i = 0; i < 400; ++i) {
    auto hit = cache.load(key);
    if (!hit) {
      // Only before the first store has landed.
      EXPECT_EQ(complete_reads, 0);
      continue;
    }
    ++complete_reads;
    ASSERT_EQ(hit->text.size(), long_text.size() + 1);
    EXPECT_EQ(hit->text.compare(0, long_text.size(), long_text), 0);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_TRUE(cache.load(key));
  // No temporary files are left behind.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    ++files;
    EXPECT_EQ(e.path().extension(), ".json") << e.path();
  }
  EXPECT_EQ(files, 1);
}

}  // namespace
}  // namespace stark::llm
