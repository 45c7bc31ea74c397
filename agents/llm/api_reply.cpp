#include "agents/llm/api_reply.h"

#include <fmt/format.h>

namespace stark::llm {

Expected<ChatReply> final_reply(const CallContext& call, const PostOutcome& outcome, int attempts,
                                const HttpRequest& request, bool temperature_dropped,
                                const std::function<Expected<ChatReply>(const HttpResponse&)>& parse) {
  const HttpResponse& r = outcome.response;
  if (r.status < 200 || r.status > 299) {
    PostOutcome counted = outcome;
    counted.attempts = attempts;
    return http_failure(call, counted);
  }
  auto reply = parse(r);
  if (!reply) return reply.error();
  reply->wire = WireRecord{redact_url(call.url), redacted_headers(request), request.body, attempts, r.status};
  reply->temperature_dropped = temperature_dropped;
  return reply;
}

Expected<nlohmann::json> reply_object(const CallContext& call, const HttpResponse& response) {
  nlohmann::json j = nlohmann::json::parse(response.body, nullptr, false);
  if (j.is_discarded()) return invalid_reply(call, response, "not JSON");
  if (!j.is_object()) return invalid_reply(call, response, "not a JSON object");
  return j;
}

Error answered_with_error(const CallContext& call, const HttpResponse& response) {
  return Error{fmt::format("{} answered HTTP {} with an error: {}", call.url, response.status,
                           scrub(parse_api_error(response.body).message, call.secret))};
}

}  // namespace stark::llm
