#include "agents/llm/chat.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/json_optional.h"

namespace stark::llm {

using nlohmann::json;

json request_to_json(const ChatRequest& request) {
  json messages = json::array();
  for (const auto& m : request.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  return {{"role", request.role_name},
          {"model", request.model},
          {"system", request.system},
          {"messages", std::move(messages)},
          {"temperature", or_null(request.temperature)},
          {"max_tokens", request.max_tokens}};
}

json reply_to_json(const ChatReply& reply) {
  json j = {{"text", reply.text},
            {"prompt_tokens", reply.prompt_tokens},
            {"cached_prompt_tokens", reply.cached_prompt_tokens},
            {"completion_tokens", reply.completion_tokens},
            {"truncated", reply.truncated},
            {"cached", reply.cached},
            {"temperature_dropped", reply.temperature_dropped},
            {"cost_usd", or_null(reply.cost_usd)}};
  if (reply.wire) {
    j["wire"] = {{"url", reply.wire->url},
                 {"request_headers", reply.wire->request_headers},
                 {"request_body", reply.wire->request_body},
                 {"attempts", reply.wire->attempts},
                 {"status", reply.wire->status}};
  }
  return j;
}

Expected<ChatReply> reply_from_json(const json& j) {
  try {
    ChatReply r;
    r.text = j.at("text").get<std::string>();
    r.prompt_tokens = j.at("prompt_tokens").get<int64_t>();
    r.cached_prompt_tokens = j.value("cached_prompt_tokens", int64_t{0});
    r.completion_tokens = j.at("completion_tokens").get<int64_t>();
    r.truncated = j.at("truncated").get<bool>();
    r.cached = j.value("cached", false);
    r.temperature_dropped = j.value("temperature_dropped", false);
    r.cost_usd = optional_field<double>(j, "cost_usd");
    return r;
  } catch (const json::exception& e) {
    return Error{fmt::format("not a stored reply: {}", e.what())};
  }
}

Expected<void> validate_request(const ChatRequest& request) {
  if (request.messages.empty()) return Error{"a chat request needs at least one message"};
  for (const auto& m : request.messages)
    if (m.role != "user" && m.role != "assistant")
      return Error{fmt::format(
          "chat message role '{}' is not 'user' or 'assistant' (the system prompt has its own field)", m.role)};
  if (request.max_tokens <= 0) return Error{fmt::format("max_tokens must be positive, got {}", request.max_tokens)};
  return {};
}

}  // namespace stark::llm
