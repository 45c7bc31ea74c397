#include "agents/llm/anthropic_client.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agents/llm/api_error.h"
#include "agents/llm/api_reply.h"
#include "agents/llm/model_rules.h"

namespace stark::llm {

using nlohmann::json;

namespace {

int64_t int_field(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number_integer() ? j[key].get<int64_t>() : 0;
}

}  // namespace

AnthropicClient::AnthropicClient(AnthropicOptions options)
    : options_(std::move(options)),
      url_(endpoint_url(options_.base_url, "/v1/messages", "/v1")),
      official_(url_host(options_.base_url) == "api.anthropic.com"),
      priced_(options_.list_prices.value_or(official_)),
      http_(options_.timeouts, options_.retry, options_.concurrency) {}

json AnthropicClient::body(const ChatRequest& request, bool send_temperature) const {
  json messages = json::array();
  for (const auto& m : request.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  json j = {{"model", request.model}, {"max_tokens", request.max_tokens}, {"messages", std::move(messages)}};
  if (!request.system.empty()) j["system"] = request.system;
  if (send_temperature) j["temperature"] = *request.temperature;
  return j;
}

Expected<ChatReply> AnthropicClient::complete(const ChatRequest& request) {
  if (auto ok = validate_request(request); !ok) return ok.error();
  if (request.model.empty()) return Error{"no model given for the anthropic backend: pass --model"};

  bool send_temperature;
  {
    std::lock_guard lock(mutex_);
    send_temperature = request.temperature && !anthropic_rejects_temperature(request.model) &&
                       !no_temperature_.contains(request.model);
  }
  CallContext call{url_, request.model, options_.key_env, options_.api_key.has_value(), options_.api_key.value_or("")};

  int attempts = 0;
  for (int fallback = 0;; ++fallback) {
    HttpRequest http{url_,
                     {{"Content-Type", "application/json"}, {"anthropic-version", options_.version}},
                     body(request, send_temperature).dump()};
    http.deadline = request.deadline;
    if (options_.api_key) http.headers.emplace_back("x-api-key", *options_.api_key);
    auto outcome = http_.post(http, is_quota_exhausted);
    if (!outcome) return outcome.error();
    attempts += outcome->attempts;
    const HttpResponse& r = outcome->response;

    // Claude Opus 4.7 and later answer 400 invalid_request_error
    // "`temperature` is deprecated for this model."
    if (r.status == 400 && fallback == 0 && send_temperature &&
        parse_api_error(r.body).message.find("temperature") != std::string::npos) {
      std::lock_guard lock(mutex_);
      no_temperature_.insert(request.model);
      send_temperature = false;
      continue;
    }
    return final_reply(call, *outcome, attempts, http, request.temperature.has_value() && !send_temperature,
                       [&](const HttpResponse& answer) { return parse(request, answer); });
  }
}

Expected<ChatReply> AnthropicClient::parse(const ChatRequest& request, const HttpResponse& response) const {
  CallContext call{url_, request.model, options_.key_env, options_.api_key.has_value(), options_.api_key.value_or("")};
  auto object = reply_object(call, response);
  if (!object) return object.error();
  const json& j = *object;
  if (j.value("type", "") == "error") return answered_with_error(call, response);
  if (!j.contains("content") || !j["content"].is_array())
    return invalid_reply(call, response, "no 'content' array in the message");

  ChatReply reply;
  for (const json& block : j["content"])  // text blocks only; thinking and tool blocks are not the answer
    if (block.is_object() && block.value("type", "") == "text" && block.contains("text") && block["text"].is_string())
      reply.text += block["text"].get<std::string>();
  reply.text = scrub(std::move(reply.text), call.secret);  // a server may echo the key
  std::string stop =
      j.contains("stop_reason") && j["stop_reason"].is_string() ? j["stop_reason"].get<std::string>() : "";
  if (stop == "refusal" && reply.text.empty())
    return Error{fmt::format("model '{}' declined the request (stop_reason \"refusal\")", request.model)};
  reply.truncated = stop == "max_tokens" || stop == "model_context_window_exceeded";

  if (j.contains("usage") && j["usage"].is_object()) {
    const json& u = j["usage"];
    int64_t cache_write = int_field(u, "cache_creation_input_tokens");
    int64_t cache_read = int_field(u, "cache_read_input_tokens");
    reply.prompt_tokens = int_field(u, "input_tokens") + cache_write + cache_read;
    reply.cached_prompt_tokens = cache_read;
    reply.completion_tokens = int_field(u, "output_tokens");
    // Cache writes have their own rate, which the table does not hold.
    if (priced_ && options_.prices && cache_write == 0)
      reply.cost_usd = options_.prices->cost("anthropic", request.model, reply.prompt_tokens,
                                             reply.cached_prompt_tokens, reply.completion_tokens);
  }
  return reply;
}

}  // namespace stark::llm
