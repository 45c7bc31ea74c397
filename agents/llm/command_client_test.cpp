#include "agents/llm/command_client.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include "core/file_io.h"
#include "core/text.h"
#include "tests/support/temp_dir.h"

namespace stark::llm {
namespace {

using namespace std::chrono_literals;
using stark::testing::TempDir;

ChatRequest request() {
  ChatRequest r;
  r.role_name = "debug";
  r.model = "house-model";
  r.system = "Fix the kernel.";
  r.messages = {{"user", "error: 'x' was not declared"}};
  r.temperature = 0.1;
  r.max_tokens = 4000;
  return r;
}

std::filesystem::path script(const TempDir& dir, const std::string& name, const std::string& body) {
  auto path = dir / name;
  EXPECT_TRUE(write_file_atomic(path, "#!/bin/sh\n" + body));
  ::chmod(path.c_str(), 0755);
  return path;
}

CommandClient client(const std::string& command, std::chrono::milliseconds timeout = 20s) {
  return CommandClient(CommandOptions{command, timeout, 2, {}});
}

TEST(CommandClient, PipesTheRequestInAndReadsTheReplyOut) {
  TempDir dir;
  auto answer = script(dir, "answer.sh",
                       "cat > \"$(dirname \"$0\")/stdin.json\"\n"
                       "printf '```cuda\\n__global__ void k() {}\\n```\\n'\n");
  auto c = client(shell_quote(answer.string()));
  auto reply = c.complete(request());
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "```cuda\n__global__ void k() {}\n```\n");
  EXPECT_EQ(reply->prompt_tokens, 0);
  EXPECT_EQ(reply->cost_usd, std::nullopt);

  auto sent = read_json_file(dir / "stdin.json");
  ASSERT_TRUE(sent) << sent.error().message;
  EXPECT_EQ((*sent)["role"], "debug");
  EXPECT_EQ((*sent)["model"], "house-model");
  EXPECT_EQ((*sent)["system"], "Fix the kernel.");
  EXPECT_EQ((*sent)["messages"][0]["role"], "user");
  EXPECT_EQ((*sent)["messages"][0]["content"], "error: 'x' was not declared");
  EXPECT_EQ((*sent)["temperature"], 0.1);
  EXPECT_EQ((*sent)["max_tokens"], 4000);
}

TEST(CommandClient, RunsThroughTheShell) {
  auto c = client("read -r line; echo \"got $(printf %s \"$line\" | wc -c) bytes\" | tr a-z A-Z");
  auto reply = c.complete(request());
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_TRUE(reply->text.starts_with("GOT ")) << reply->text;
}

TEST(CommandClient, FailureCarriesTheExitStatusAndStderrTail) {
  TempDir dir;
  auto failing = script(dir, "fail.sh",
                        "cat >/dev/null\necho 'line one' >&2\necho 'quota exceeded for house-model' >&2\nexit 3\n");
  auto reply = client(failing.string()).complete(request());
  ASSERT_FALSE(reply);
  const std::string& m = reply.error().message;
  EXPECT_NE(m.find("failed (exit code 3)"), std::string::npos) << m;
  EXPECT_NE(m.find("line one | quota exceeded for house-model"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
}

TEST(CommandClient, EmptyOutputIsAnError) {
  auto reply = client("cat >/dev/null; printf '  \\n'; echo 'model not loaded' >&2").complete(request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("printed nothing on stdout: model not loaded"), std::string::npos)
      << reply.error().message;
}

TEST(CommandClient, TimeoutKillsTheProgramAndWhatItStarted) {
  TempDir dir;
  auto marker = dir / "survived";
  auto reply = client("sleep 30; touch " + shell_quote(marker.string()), 300ms).complete(request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("gave no answer within 0.3 s"), std::string::npos) << reply.error().message;
  EXPECT_FALSE(std::filesystem::exists(marker));
}

TEST(CommandClient, AProgramThatIgnoresALargeInputStillAnswers) {
  auto r = request();
  r.messages[0].content = std::string(4 << 20, 'x');  // far more than a pipe holds
  auto reply = client("echo early answer").complete(r);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "early answer\n");
}

TEST(CommandClient, OutputPastTheLimitIsStopped) {
  auto reply = client("cat >/dev/null; head -c 40000000 /dev/zero | tr '\\0' x").complete(request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("printed more than 16 MiB and was killed"), std::string::npos)
      << reply.error().message;
}

TEST(CommandClient, MissingProgramIsReported) {
  auto reply = client("/nonexistent/llm-wrapper --flag").complete(request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("failed (exit code 127)"), std::string::npos) << reply.error().message;
  EXPECT_NE(reply.error().message.find("not found"), std::string::npos) << reply.error().message;
}

}  // namespace
}  // namespace stark::llm
