#include "agents/llm/api_error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace stark::llm {

using nlohmann::json;

namespace {

// One line, at most `limit` characters: server text goes into a single-line Error.
std::string one_line(std::string_view text, size_t limit = 300) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
    if (out.size() >= limit) {
      out += "...";
      break;
    }
  }
  return out;
}

std::string string_field(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return {};
  const json& v = j[key];
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return v.dump();
  return {};
}

std::string server_says(const CallContext& call, const ApiErrorBody& body) {
  return one_line(scrub(body.message, call.secret));
}

bool mentions_model(const ApiErrorBody& body) {
  std::string text = body.message + " " + body.code + " " + body.type;
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text.find("model") != std::string::npos;
}

}  // namespace

ApiErrorBody parse_api_error(std::string_view body) {
  ApiErrorBody out;
  json j = json::parse(body, nullptr, false);
  if (j.is_object()) {
    if (j.contains("error") && j["error"].is_object()) {
      const json& e = j["error"];
      out.message = string_field(e, "message");
      out.type = string_field(e, "type");
      out.code = string_field(e, "code");
      out.param = string_field(e, "param");
      if (e.contains("details") && e["details"].is_object() && out.code.empty())
        out.code = string_field(e["details"], "error_code");
    } else if (j.contains("error") && j["error"].is_string()) {
      out.message = j["error"].get<std::string>();  // llama.cpp, Ollama
    } else {
      out.message = string_field(j, "message");  // vLLM: {"object": "error", "message": ...}
      if (out.message.empty()) out.message = string_field(j, "detail");
      out.type = string_field(j, "type");
    }
  }
  if (out.message.empty()) out.message = one_line(body, 200);
  return out;
}

bool is_quota_exhausted(const HttpResponse& response) {
  if (response.status != 429) return false;
  ApiErrorBody e = parse_api_error(response.body);
  return e.code == "insufficient_quota" || e.type == "insufficient_quota" || e.code == "enforced_spend_limit_reached";
}

Error http_failure(const CallContext& call, const PostOutcome& outcome) {
  const HttpResponse& r = outcome.response;
  ApiErrorBody body = parse_api_error(r.body);
  std::string says = server_says(call, body);
  switch (r.status) {
    case 401:
      // Never echo the server's text here: some servers quote part of the key.
      if (!call.key_sent)
        return Error{fmt::format("{} requires an API key (HTTP 401): set {}", call.url, call.key_env)};
      return Error{fmt::format("the API rejected the key in {} (HTTP 401 from {})", call.key_env, call.url)};
    case 403:
      return Error{fmt::format("the key in {} may not use model '{}' (HTTP 403 from {}): {}", call.key_env, call.model,
                               call.url, says)};
    case 404:
      if (mentions_model(body))
        return Error{
            fmt::format("the API does not know model '{}' (HTTP 404 from {}): {}", call.model, call.url, says)};
      return Error{
          fmt::format("{} answered HTTP 404: check the base URL (OpenAI-compatible servers usually end in /v1): {}",
                      call.url, says)};
    case 429:
      if (is_quota_exhausted(r))
        return Error{fmt::format("{} refused the request: the account's quota or spend limit is used up (HTTP 429): {}",
                                 call.url, says)};
      break;
    default: break;
  }
  if (outcome.refused_wait)
    return Error{
        fmt::format("{} asked to wait {:g} s before retrying (HTTP {}), longer than STARK waits; try later: {}",
                    call.url, static_cast<double>(outcome.refused_wait->count()) / 1000.0, r.status, says)};
  if (ApiHttp::retryable_status(r.status)) {
    std::string what = r.status == 429 ? "is rate limiting requests" : "is failing";
    return Error{
        fmt::format("{} {} (HTTP {} after {} attempts): {}", call.url, what, r.status, outcome.attempts, says)};
  }
  if (r.status >= 400 && r.status < 500)
    return Error{
        fmt::format("{} rejected the request for model '{}' (HTTP {}): {}", call.url, call.model, r.status, says)};
  return Error{fmt::format("unexpected HTTP {} from {}: {}", r.status, call.url, says)};
}

Error invalid_reply(const CallContext& call, const HttpResponse& response, std::string_view what) {
  return Error{fmt::format("invalid JSON from {} (HTTP {}): {}; the reply began: {}", call.url, response.status, what,
                           one_line(scrub(response.body.substr(0, 120), call.secret), 120))};
}

}  // namespace stark::llm
