// The --dry-run backend: shows each prompt that would be sent, sends nothing.
#ifndef STARK_AGENTS_LLM_DRY_RUN_CLIENT_H
#define STARK_AGENTS_LLM_DRY_RUN_CLIENT_H

#include <mutex>
#include <ostream>
#include <string>

#include "agents/llm/chat.h"

namespace stark::llm {

/// Prints every request (destination, role, model, temperature, max_tokens,
/// system prompt, messages) to a stream and answers with an Error that says
/// the run is dry, so the search records the attempt as not made. Thread-safe:
/// one request is printed whole before the next.
class DryRunClient final : public ChatClient {
 public:
  /// destination: where the real run would send it ("openai at https://...").
  DryRunClient(std::ostream& out, std::string destination);
  Expected<ChatReply> complete(const ChatRequest& request) override;

  /// The message of the Error every request gets.
  static constexpr const char* kDryRunError = "dry run: the prompt was printed and nothing was sent";

 private:
  std::ostream& out_;
  std::string destination_;
  std::mutex mutex_;
  int count_ = 0;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_DRY_RUN_CLIENT_H
