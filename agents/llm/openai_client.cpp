#include "agents/llm/openai_client.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agents/llm/api_error.h"
#include "agents/llm/api_reply.h"
#include "agents/llm/model_rules.h"

namespace stark::llm {

using nlohmann::json;

namespace {

bool mentions(const ApiErrorBody& e, std::string_view word) {
  return e.param == word || e.message.find(word) != std::string::npos;
}

int64_t int_field(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_number_integer() ? j[key].get<int64_t>() : 0;
}

// message.content is a string, null, or (some servers) an array of text parts.
std::string content_text(const json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (content.is_array())
    for (const json& part : content)
      if (part.is_object() && part.value("type", "") == "text" && part.contains("text") && part["text"].is_string())
        text += part["text"].get<std::string>();
  return text;
}

}  // namespace

OpenAiClient::OpenAiClient(OpenAiOptions options)
    : options_(std::move(options)),
      url_(endpoint_url(options_.base_url, "/chat/completions")),
      official_(url_host(options_.base_url) == "api.openai.com"),
      priced_(options_.list_prices.value_or(official_)),
      http_(options_.timeouts, options_.retry, options_.concurrency) {}

json OpenAiClient::body(const ChatRequest& request, bool send_temperature, bool completion_tokens_field) const {
  json messages = json::array();
  if (!request.system.empty()) messages.push_back({{"role", "system"}, {"content", request.system}});
  for (const auto& m : request.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  json j = {{"model", request.model}, {"messages", std::move(messages)}};
  j[completion_tokens_field ? "max_completion_tokens" : "max_tokens"] = request.max_tokens;
  if (send_temperature) j["temperature"] = *request.temperature;
  return j;
}

Expected<ChatReply> OpenAiClient::complete(const ChatRequest& request) {
  if (auto ok = validate_request(request); !ok) return ok.error();
  if (request.model.empty()) return Error{"no model given for the openai backend: pass --model"};

  bool send_temperature, completion_tokens_field;
  {
    std::lock_guard lock(mutex_);
    send_temperature =
        request.temperature && !openai_rejects_temperature(request.model) && !no_temperature_.contains(request.model);
    completion_tokens_field =
        openai_uses_max_completion_tokens(request.model, official_) || completion_tokens_.contains(request.model);
  }
  CallContext call{url_, request.model, options_.key_env, options_.api_key.has_value(), options_.api_key.value_or("")};

  int attempts = 0;
  for (int fallback = 0;; ++fallback) {
    HttpRequest http{
        url_, {{"Content-Type", "application/json"}}, body(request, send_temperature, completion_tokens_field).dump()};
    http.deadline = request.deadline;
    if (options_.api_key) http.headers.emplace_back("Authorization", "Bearer " + *options_.api_key);
    auto outcome = http_.post(http, is_quota_exhausted);
    if (!outcome) return outcome.error();
    attempts += outcome->attempts;
    const HttpResponse& r = outcome->response;

    if (r.status == 400 && fallback < 2) {
      ApiErrorBody e = parse_api_error(r.body);
      std::lock_guard lock(mutex_);
      if (send_temperature && mentions(e, "temperature")) {
        no_temperature_.insert(request.model);
        send_temperature = false;
        continue;
      }
      if (!completion_tokens_field && mentions(e, "max_tokens") &&
          e.message.find("max_completion_tokens") != std::string::npos) {
        completion_tokens_.insert(request.model);
        completion_tokens_field = true;
        continue;
      }
    }
    return final_reply(call, *outcome, attempts, http, request.temperature.has_value() && !send_temperature,
                       [&](const HttpResponse& answer) { return parse(request, answer); });
  }
}

Expected<ChatReply> OpenAiClient::parse(const ChatRequest& request, const HttpResponse& response) const {
  CallContext call{url_, request.model, options_.key_env, options_.api_key.has_value(), options_.api_key.value_or("")};
  auto object = reply_object(call, response);
  if (!object) return object.error();
  const json& j = *object;
  if (j.contains("error") && !j["error"].is_null()) return answered_with_error(call, response);
  if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty())
    return invalid_reply(call, response, "no 'choices' in the chat completion");
  const json& choice = j["choices"][0];
  if (!choice.is_object() || !choice.contains("message") || !choice["message"].is_object())
    return invalid_reply(call, response, "the first choice has no 'message'");
  const json& message = choice["message"];

  ChatReply reply;
  reply.text = scrub(content_text(message.value("content", json())), call.secret);  // a server may echo the key
  std::string finish = choice.contains("finish_reason") && choice["finish_reason"].is_string()
                           ? choice["finish_reason"].get<std::string>()
                           : "";
  if (reply.text.empty() && message.contains("refusal") && message["refusal"].is_string())
    return Error{
        fmt::format("model '{}' refused the request: {}", request.model, message["refusal"].get<std::string>())};
  reply.truncated = finish == "length";

  bool have_usage = j.contains("usage") && j["usage"].is_object();
  if (have_usage) {
    const json& u = j["usage"];
    reply.prompt_tokens = int_field(u, "prompt_tokens");
    reply.completion_tokens = int_field(u, "completion_tokens");
    if (u.contains("prompt_tokens_details"))
      reply.cached_prompt_tokens = int_field(u["prompt_tokens_details"], "cached_tokens");
  }
  if (have_usage && priced_ && options_.prices) {
    std::string answered = j.contains("model") && j["model"].is_string() ? j["model"].get<std::string>() : "";
    reply.cost_usd = options_.prices->cost("openai", request.model, reply.prompt_tokens, reply.cached_prompt_tokens,
                                           reply.completion_tokens);
    if (!reply.cost_usd && !answered.empty())
      reply.cost_usd = options_.prices->cost("openai", answered, reply.prompt_tokens, reply.cached_prompt_tokens,
                                             reply.completion_tokens);
  }
  return reply;
}

}  // namespace stark::llm
