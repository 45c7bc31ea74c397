// The plain types every chat backend speaks (OpenAI-compatible, Anthropic,
// a user's command, a dry run), and the ChatClient interface the search calls.
#ifndef STARK_AGENTS_LLM_CHAT_H
#define STARK_AGENTS_LLM_CHAT_H

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/expected.h"

namespace stark::llm {

/// One turn of a conversation: role "user" or "assistant".
struct ChatMessage {
  std::string role;
  std::string content;
  bool operator==(const ChatMessage&) const = default;
};

struct ChatReply;

/// What a role asks a model. The system prompt is separate because the APIs
/// place it differently (a first message for OpenAI, a top-level field for
/// Anthropic).
struct ChatRequest {
  std::string role_name;  // "plan", "code" or "debug": for logs and the audit only, never sent
  std::string model;
  std::string system;
  std::vector<ChatMessage> messages;
  std::optional<double> temperature;  // omitted for models that reject it
  int max_tokens = 8192;              // upper bound on the reply (Anthropic requires one)
  /// When the caller stops waiting (a kernel's --time-limit); never sent,
  /// never part of the cache key.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Whether the caller can use a reply (a role's parse of it). The response
  /// cache stores only replies it accepts and takes a stored one it rejects
  /// for a miss, so a reply that failed is asked for again. Empty: any reply.
  /// Never sent, never part of the cache key.
  std::function<bool(const ChatReply&)> usable;
};

/// What was really sent for a reply that came over HTTP: the audit keeps it so
/// a user can see what left the machine. Headers carrying keys are redacted.
struct WireRecord {
  std::string url;
  std::vector<std::string> request_headers;  // "name: value", secrets shown as [redacted]
  std::string request_body;                  // the body of the attempt that succeeded
  int attempts = 1;                          // HTTP attempts, retries and fallbacks included
  int status = 0;                            // HTTP status of the final reply
};

/// A model's answer with what it cost.
struct ChatReply {
  std::string text;
  int64_t prompt_tokens = 0;         // all input tokens, cached ones included
  int64_t cached_prompt_tokens = 0;  // the part of prompt_tokens served from the provider's prompt cache
  int64_t completion_tokens = 0;     // output tokens (reasoning tokens included)
  bool truncated = false;            // stopped at max_tokens
  bool cached = false;               // served from STARK's response cache (nothing was sent)
  bool temperature_dropped = false;  // the request's temperature was not sent: the model rejects the parameter
  std::optional<double> cost_usd;    // unknown (not 0) when the price table has no entry
  std::optional<WireRecord> wire;    // absent for cache hits and non-HTTP backends
};

/// A chat backend. complete() is called from several search threads at once,
/// so implementations must be thread-safe. Failures are one-line Errors a user
/// can act on.
class ChatClient {
 public:
  virtual ~ChatClient() = default;
  virtual Expected<ChatReply> complete(const ChatRequest& request) = 0;
};

/// The request as JSON (role_name included), as the command backend, the cache
/// and the audit log write it.
nlohmann::json request_to_json(const ChatRequest& request);

/// The reply as JSON (wire included when present).
nlohmann::json reply_to_json(const ChatReply& reply);

/// Reads reply_to_json()'s output back (the wire record is not read).
Expected<ChatReply> reply_from_json(const nlohmann::json& j);

/// Checks what every backend needs: at least one message, roles
/// "user"/"assistant", a positive max_tokens. (HTTP backends also need a model.)
Expected<void> validate_request(const ChatRequest& request);

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_CHAT_H
