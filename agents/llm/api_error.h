// Turning an API's error answer into one line a user can act on. Both APIs
// answer errors as JSON: OpenAI {"error": {"message", "type", "param", "code"}},
// Anthropic {"type": "error", "error": {"type", "message"}, "request_id"};
// OpenAI-compatible servers vary ({"error": "text"}, {"message": ...}).
#ifndef STARK_AGENTS_LLM_API_ERROR_H
#define STARK_AGENTS_LLM_API_ERROR_H

#include <string>
#include <string_view>

#include "agents/llm/api_http.h"
#include "core/expected.h"

namespace stark::llm {

/// The fields of an error body that were found (empty when absent).
struct ApiErrorBody {
  std::string message;  // the server's text, or the start of a non-JSON body
  std::string type;     // error.type: invalid_request_error, rate_limit_error, ...
  std::string code;     // error.code (OpenAI), error.details.error_code (Anthropic)
  std::string param;    // error.param (OpenAI)
};

/// Reads whichever error shape the body has; never fails.
ApiErrorBody parse_api_error(std::string_view body);

/// What the error message needs to know about the call.
struct CallContext {
  std::string url;
  std::string model;
  std::string key_env;  // OPENAI_API_KEY, ANTHROPIC_API_KEY
  bool key_sent = false;
  std::string secret;  // scrubbed from anything the server says
};

/// A 429 that waiting will not fix: an exhausted quota or spend limit
/// (OpenAI insufficient_quota, Anthropic enforced_spend_limit_reached).
bool is_quota_exhausted(const HttpResponse& response);

/// The one-line Error for a non-2xx final answer: a rejected key (401), no
/// access (403), an unknown model or wrong base URL (404), a bad request (400),
/// rate limiting or server failures that outlasted the retries.
Error http_failure(const CallContext& call, const PostOutcome& outcome);

/// "invalid JSON from URL (HTTP 200): what; the reply began: ..." for an
/// answer that is not the JSON the API documents.
Error invalid_reply(const CallContext& call, const HttpResponse& response, std::string_view what);

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_API_ERROR_H
