// The "command" backend: any program the user names answers the prompts.
#ifndef STARK_AGENTS_LLM_COMMAND_CLIENT_H
#define STARK_AGENTS_LLM_COMMAND_CLIENT_H

#include <chrono>
#include <filesystem>
#include <string>

#include "agents/llm/chat.h"
#include "agents/llm/gate.h"

namespace stark::llm {

/// How to run the user's program.
struct CommandOptions {
  std::string command;                         // run as /bin/sh -c COMMAND
  std::chrono::milliseconds timeout{600'000};  // per request; the program's process group is killed past it
  int concurrency = 4;                         // programs running at once at most
  std::filesystem::path cwd;                   // empty: the current folder
};

/// Runs the command once per request: the request as one JSON object on its
/// stdin ({"role", "model", "system", "messages": [{"role", "content"}],
/// "temperature" (number or null), "max_tokens"}), the reply text is its
/// stdout. A non-zero exit, a timeout or an empty stdout is an Error carrying
/// the end of its stderr. Tokens are not known (0) and the cost is unknown.
/// Thread-safe.
class CommandClient final : public ChatClient {
 public:
  explicit CommandClient(CommandOptions options);
  Expected<ChatReply> complete(const ChatRequest& request) override;

 private:
  CommandOptions options_;
  Gate gate_;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_COMMAND_CLIENT_H
