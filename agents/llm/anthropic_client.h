// The Anthropic Messages API backend: POST {base_url}/v1/messages with the
// x-api-key and anthropic-version headers.
#ifndef STARK_AGENTS_LLM_ANTHROPIC_CLIENT_H
#define STARK_AGENTS_LLM_ANTHROPIC_CLIENT_H

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "agents/llm/api_http.h"
#include "agents/llm/chat.h"
#include "agents/llm/prices.h"

namespace stark::llm {

/// Where and how an AnthropicClient talks.
struct AnthropicOptions {
  std::string base_url = "https://api.anthropic.com";  // with or without a trailing /v1
  std::optional<std::string> api_key;                  // sent as x-api-key
  std::string key_env = "ANTHROPIC_API_KEY";
  std::string version = "2023-06-01";  // the anthropic-version header
  HttpTimeouts timeouts;
  RetryPolicy retry;
  int concurrency = 4;
  std::shared_ptr<const PriceTable> prices = PriceTable::shared_builtin();  // null: costs unknown
  /// Whether the endpoint bills at the table's list prices; unset: only
  /// api.anthropic.com does.
  std::optional<bool> list_prices;
};

/// Messages API over HTTP: the system prompt as the top-level "system" field,
/// max_tokens always sent (the API requires it), the reply's text blocks
/// joined, stop_reason "max_tokens" marks a truncated reply. Temperature is
/// left out for models that reject it; a 400 naming the temperature makes the
/// client retry once without it and remember that for the model. Thread-safe.
class AnthropicClient final : public ChatClient {
 public:
  explicit AnthropicClient(AnthropicOptions options);
  Expected<ChatReply> complete(const ChatRequest& request) override;

  bool official() const { return official_; }
  const std::string& url() const { return url_; }

 private:
  nlohmann::json body(const ChatRequest& request, bool send_temperature) const;
  Expected<ChatReply> parse(const ChatRequest& request, const HttpResponse& response) const;

  AnthropicOptions options_;
  std::string url_;
  bool official_;
  bool priced_;
  ApiHttp http_;
  std::mutex mutex_;
  std::set<std::string> no_temperature_;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_ANTHROPIC_CLIENT_H
