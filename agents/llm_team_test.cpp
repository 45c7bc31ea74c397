// The LLM team over the real client stack (response cache -> OpenAI client)
// talking to a real HTTP server on 127.0.0.1: what a role cannot use is never
// kept, so the next run asks again; a hostile reply is a failed role, never a
// crash.
#include "agents/llm_team.h"

#include <gtest/gtest.h>

#include "agents/context_windows.h"
#include "agents/llm/make_client.h"
#include "agents/llm/testing/fake_llm_server.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

using llm::testing::FakeLlmServer;
using stark::testing::TempDir;

const std::vector<std::pair<std::string, std::string>> kJson = {{"Content-Type", "application/json"}};
const std::string kSource = "__global__ void saxpy(int n, float a, const float* x, float* y) {\n  y[0] = a;\n}";

/// One kernel, its root node, and a team whose replies a local server scripts.
struct Fixture {
  FakeLlmServer server;
  TempDir dir;
  Kernel kernel;
  KernelBrief brief;
  SearchTree tree;
  llm::ClientStack stack;
  std::unique_ptr<LlmTeam> team;

  Fixture() : tree(root()) {
    kernel.id = "src/a.cu:saxpy";
    kernel.name = kernel.qualified_name = "saxpy";
    kernel.file = "src/a.cu";
    brief.kernel = &kernel;
    brief.source = kSource;
    llm::ClientOptions o;
    o.env = [](const std::string&) { return std::nullopt; };
    o.cache_dir = dir / "llm-cache";
    auto made = llm::make_chat_client("openai", "local-coder", server.openai_base(), "", o);
    if (!made) throw std::runtime_error(made.error().message);
    stack = std::move(*made);
    LlmTeamOptions team_options;
    team_options.backend = "openai";
    team_options.model = "local-coder";
    team = std::make_unique<LlmTeam>(*stack.client, team_options);
  }
  static SearchNode root() {
    SearchNode n;
    n.variant = Variant{"", kSource, {}};
    return n;
  }
  void answer(const std::string& text) { server.script({200, kJson, llm::testing::openai_completion(text)}); }
  RoleReply<Variant> code() { return team->code(code_window(tree, 0, brief, Plan{"unroll", kSource, {}})); }
  RoleReply<Plan> plan() { return team->plan(plan_window(tree, 0, brief, 3)); }
};

TEST(LlmTeam, AReplyTheRoleCannotUseIsAskedForAgain) {
  Fixture f;
  f.answer("I would unroll the loop by four.");  // no code: the code role fails
  f.answer("```cuda\n" + kSource + "\n```");
  auto first = f.code();
  ASSERT_FALSE(first.value);
  EXPECT_NE(first.value.error().message.find("no complete definition of the kernel 'saxpy'"), std::string::npos);
  auto second = f.code();  // the same prompt: not served the failed reply from the cache
  ASSERT_TRUE(second.value) << second.value.error().message;
  EXPECT_EQ(f.server.count(), 2);
  auto third = f.code();  // a reply that parsed is kept
  ASSERT_TRUE(third.value);
  EXPECT_EQ(third.value->source, kSource);
  EXPECT_EQ(f.server.count(), 2);
}

TEST(LlmTeam, APlanInWordsIsKept) {
  Fixture f;
  f.answer("I think shared memory would help.");
  auto first = f.plan();
  ASSERT_TRUE(first.value) << first.value.error().message;
  EXPECT_EQ(first.value->strategy, "I think shared memory would help");
  ASSERT_TRUE(f.plan().value);
  EXPECT_EQ(f.server.count(), 1);
}

// A 300 KB reply once overflowed the parser's stack; cached, it crashed every
// rerun, --force included, without a request being made.
TEST(LlmTeam, AnOversizedReplyFailsTheRoleAndIsNotKept) {
  Fixture f;
  std::string huge = "STRATEGY: " + std::string(300'000, 'x') + "\n```cuda\n" + kSource + "\n```";
  f.answer(huge);
  f.answer(huge);
  auto plan = f.plan();
  ASSERT_FALSE(plan.value);
  EXPECT_TRUE(plan.value.error().message.starts_with("plan reply: the reply is 294 KiB, over the 256 KiB a reply may"))
      << plan.value.error().message;
  auto code = f.code();
  ASSERT_FALSE(code.value);
  EXPECT_EQ(f.server.count(), 2);
  f.answer("```cuda\n" + kSource + "\n```");
  EXPECT_TRUE(f.code().value);  // asked again, not served the huge reply
  EXPECT_EQ(f.server.count(), 3);
}

// An annotation's temperature for a role reaches the request; without one
// the team's own goes out.
TEST(LlmTeam, TheSearchsTemperatureForARoleIsTheOneSent) {
  Fixture f;
  f.answer("STRATEGY: unroll\n```cuda\n" + kSource + "\n```");
  f.answer("```cuda\n" + kSource + "\n```");
  PlanInput plan = plan_window(f.tree, 0, f.brief, 3);
  plan.temperature = 1.25;
  ASSERT_TRUE(f.team->plan(plan).value);
  ASSERT_TRUE(f.code().value);
  auto got = f.server.received();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_DOUBLE_EQ(got[0].json.at("temperature").get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(got[1].json.at("temperature").get<double>(), LlmTeamOptions{}.code_temperature);
}

}  // namespace
}  // namespace stark
