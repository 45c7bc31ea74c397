// What both API clients do with the server's final answer: a non-2xx status
// becomes the one-line HTTP error, a 2xx body must be a JSON object before
// the client reads its fields, and the reply carries the record of the
// exchange that produced it.
#ifndef STARK_AGENTS_LLM_API_REPLY_H
#define STARK_AGENTS_LLM_API_REPLY_H

#include <nlohmann/json.hpp>

#include <functional>

#include "agents/llm/api_error.h"
#include "agents/llm/chat.h"
#include "core/expected.h"

namespace stark::llm {

/// The reply of a retried POST's final answer: http_failure for a non-2xx
/// status; else what `parse` makes of the answer, with the wire record of
/// the exchange (`request` as sent, secrets redacted) and whether the
/// temperature was dropped on the way.
Expected<ChatReply> final_reply(const CallContext& call, const PostOutcome& outcome, int attempts,
                                const HttpRequest& request, bool temperature_dropped,
                                const std::function<Expected<ChatReply>(const HttpResponse&)>& parse);

/// The JSON object a 2xx answer holds; invalid_reply for a body that is not
/// JSON or not an object.
Expected<nlohmann::json> reply_object(const CallContext& call, const HttpResponse& response);

/// "URL answered HTTP N with an error: ..." for an API error inside a 2xx answer.
Error answered_with_error(const CallContext& call, const HttpResponse& response);

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_API_REPLY_H
