// The cost of every reply at rates the user gave (`stark optimize --price IN
// OUT`), for endpoints whose prices STARK's table cannot know: a local or
// third-party server, a command.
#ifndef STARK_AGENTS_LLM_PRICED_CLIENT_H
#define STARK_AGENTS_LLM_PRICED_CLIENT_H

#include <memory>

#include "agents/llm/chat.h"

namespace stark::llm {

/// USD per million tokens.
struct TokenRates {
  double input = 0;
  double output = 0;
};

/// Sets each reply's cost from its token counts at fixed rates (cached
/// prompt tokens at the input rate), whatever the backend said.
class PricedClient : public ChatClient {
 public:
  PricedClient(std::shared_ptr<ChatClient> inner, TokenRates rates) : inner_(std::move(inner)), rates_(rates) {}

  Expected<ChatReply> complete(const ChatRequest& request) override {
    auto reply = inner_->complete(request);
    if (reply)
      reply->cost_usd = (static_cast<double>(reply->prompt_tokens) * rates_.input +
                         static_cast<double>(reply->completion_tokens) * rates_.output) /
                        1e6;
    return reply;
  }

 private:
  std::shared_ptr<ChatClient> inner_;
  TokenRates rates_;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_PRICED_CLIENT_H
