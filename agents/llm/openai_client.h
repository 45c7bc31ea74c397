// The OpenAI-compatible Chat Completions backend: POST {base_url}/chat/completions.
// Works with OpenAI itself and with any compatible server (vLLM, llama.cpp
// server, Ollama's /v1).
#ifndef STARK_AGENTS_LLM_OPENAI_CLIENT_H
#define STARK_AGENTS_LLM_OPENAI_CLIENT_H

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

/// Where and how an OpenAiClient talks.
struct OpenAiOptions {
  std::string base_url = "https://api.openai.com/v1";
  std::optional<std::string> api_key;      // "Authorization: Bearer KEY"; none for local servers that need none
  std::string key_env = "OPENAI_API_KEY";  // named in errors about the key
  HttpTimeouts timeouts;
  RetryPolicy retry;
  int concurrency = 4;                                                      // requests in flight at most
  std::shared_ptr<const PriceTable> prices = PriceTable::shared_builtin();  // null: costs unknown
  /// Whether the endpoint bills at the table's list prices; unset: only
  /// OpenAI's own host does (a local or third-party server has unknown costs).
  std::optional<bool> list_prices;
};

/// Chat Completions over HTTP. The system prompt goes first as a "system"
/// message. The output limit is max_completion_tokens on OpenAI's own API and
/// for reasoning models, max_tokens elsewhere. Temperature is left out for
/// models that reject it; a 400 naming the temperature (or max_tokens) makes
/// the client retry once without it and remember that for the model.
/// finish_reason "length" marks a truncated reply. Thread-safe.
class OpenAiClient final : public ChatClient {
 public:
  explicit OpenAiClient(OpenAiOptions options);
  Expected<ChatReply> complete(const ChatRequest& request) override;

  /// True when the base URL is OpenAI's own API.
  bool official() const { return official_; }
  const std::string& url() const { return url_; }

 private:
  nlohmann::json body(const ChatRequest& request, bool send_temperature, bool completion_tokens_field) const;
  Expected<ChatReply> parse(const ChatRequest& request, const HttpResponse& response) const;

  OpenAiOptions options_;
  std::string url_;
  bool official_;
  bool priced_;
  ApiHttp http_;
  std::mutex mutex_;
  std::set<std::string> no_temperature_;     // models that answered 400 to a temperature
  std::set<std::string> completion_tokens_;  // models that answered 400 to max_tokens
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_OPENAI_CLIENT_H
