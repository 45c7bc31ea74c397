// The plan, code and debug roles played by a language model: prompts from
// the role's window of the tree, replies parsed as untrusted text.
#ifndef STARK_AGENTS_LLM_TEAM_H
#define STARK_AGENTS_LLM_TEAM_H

#include <string>

#include "agents/llm/chat.h"
#include "agents/prompt_builder.h"
#include "agents/reply_parser.h"
#include "agents/team.h"

namespace stark {

/// Temperatures of docs/design.md ("The method"): a creative planner, careful coders.
struct LlmTeamOptions {
  std::string backend;   // for result.json
  std::string endpoint;  // base URL or command: part of the team's identity
  std::string model;     // every role's, unless the role names its own
  std::string plan_model, code_model, debug_model;
  double plan_temperature = 0.8;
  double code_temperature = 0.1;
  double debug_temperature = 0.1;
  int max_tokens = 8192;
};

class LlmTeam : public Team {
 public:
  /// The client must outlive the team and be thread-safe.
  LlmTeam(llm::ChatClient& client, LlmTeamOptions options);

  BackendInfo info() const override;
  std::string identity() const override;
  RoleReply<Plan> plan(const PlanInput& in) override;
  RoleReply<Variant> code(const CodeInput& in) override;
  RoleReply<Variant> debug(const DebugInput& in) override;

 private:
  /// A parsed reply; when it held no code, `prose` keeps what it said instead.
  struct Answer {
    Expected<ParsedReply> value;
    RoleUsage usage;
    std::optional<std::string> prose;
  };
  /// prose_ok: a reply without code still answers the role (a plan in words).
  /// Only a reply the role can use is kept by the response cache.
  Answer ask(const char* role, const Prompt& prompt, const std::string& model, double temperature,
             const std::string& kernel, bool prose_ok, Deadline deadline);
  /// What a reply gives the role (usage left empty).
  static Answer interpret(const llm::ChatReply& reply, const std::string& kernel, bool prose_ok);

  llm::ChatClient& client_;
  LlmTeamOptions options_;
};

}  // namespace stark

#endif  // STARK_AGENTS_LLM_TEAM_H
