#include "agents/llm/testing/fake_llm_server.h"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace stark::llm::testing {

using nlohmann::json;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

Scripted openai_fail(int status, const std::string& message, const std::string& type, const std::string& param = "",
                     const std::string& code = "") {
  return Scripted{status, {{"Content-Type", "application/json"}}, openai_error(message, type, param, code)};
}

Scripted anthropic_fail(int status, const std::string& type, const std::string& message) {
  return Scripted{status, {{"Content-Type", "application/json"}}, anthropic_error(type, message)};
}

}  // namespace

std::string openai_completion(const std::string& text, const std::string& finish_reason, int prompt_tokens,
                              int completion_tokens, int cached_tokens) {
  json usage = {{"prompt_tokens", prompt_tokens},
                {"completion_tokens", completion_tokens},
                {"total_tokens", prompt_tokens + completion_tokens},
                {"prompt_tokens_details", {{"cached_tokens", cached_tokens}}}};
  return json{{"id", "chatcmpl-test"},
              {"object", "chat.completion"},
              {"created", 1764662400},
              {"model", "served-model"},
              {"choices", json::array({{{"index", 0},
                                        {"message", {{"role", "assistant"}, {"content", text}, {"refusal", nullptr}}},
                                        {"finish_reason", finish_reason}}})},
              {"usage", usage}}
      .dump();
}

std::string openai_error(const std::string& message, const std::string& type, const std::string& param,
                         const std::string& code) {
  return json{{"error",
               {{"message", message},
                {"type", type},
                {"param", param.empty() ? json(nullptr) : json(param)},
                {"code", code.empty() ? json(nullptr) : json(code)}}}}
      .dump();
}

std::string anthropic_message(const std::string& text, const std::string& stop_reason, int input_tokens,
                              int output_tokens) {
  return json{{"id", "msg_test"},
              {"type", "message"},
              {"role", "assistant"},
              {"model", "served-model"},
              {"content", json::array({{{"type", "text"}, {"text", text}}})},
              {"stop_reason", stop_reason},
              {"stop_sequence", nullptr},
              {"usage", {{"input_tokens", input_tokens}, {"output_tokens", output_tokens}}}}
      .dump();
}

std::string anthropic_error(const std::string& type, const std::string& message) {
  return json{{"type", "error"}, {"error", {{"type", type}, {"message", message}}}, {"request_id", "req_test"}}.dump();
}

FakeLlmServer::FakeLlmServer(FakeServerConfig config) : config_(std::move(config)), server_(new httplib::Server) {
  server_->new_task_queue = [] { return new httplib::ThreadPool(16); };
  server_->Post("/v1/chat/completions",
                [this](const httplib::Request& q, httplib::Response& s) { handle(q, s, false); });
  server_->Post("/v1/messages", [this](const httplib::Request& q, httplib::Response& s) { handle(q, s, true); });
  port_ = server_->bind_to_any_port("127.0.0.1");
  if (port_ <= 0) throw std::runtime_error("the fake LLM server cannot bind a port on 127.0.0.1");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  for (int i = 0; i < 5000 && !server_->is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (!server_->is_running()) {
    server_->stop();
    thread_.join();
    throw std::runtime_error("the fake LLM server did not start listening");
  }
}

FakeLlmServer::~FakeLlmServer() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  server_->stop();
  thread_.join();
}

std::string FakeLlmServer::openai_base() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
std::string FakeLlmServer::anthropic_base() const { return "http://127.0.0.1:" + std::to_string(port_); }

void FakeLlmServer::script(Scripted answer) {
  std::lock_guard lock(mutex_);
  script_.push_back(std::move(answer));
}

std::vector<Received> FakeLlmServer::received() const {
  std::lock_guard lock(mutex_);
  return received_;
}

int FakeLlmServer::count() const {
  std::lock_guard lock(mutex_);
  return static_cast<int>(received_.size());
}

void FakeLlmServer::hold(int limit, std::chrono::milliseconds window) {
  std::lock_guard lock(mutex_);
  hold_limit_ = limit;
  hold_window_ = window;
}

int FakeLlmServer::max_in_flight() const {
  std::lock_guard lock(mutex_);
  return max_in_flight_;
}

// The checks the real services make before answering, with their error shapes.
std::optional<Scripted> FakeLlmServer::check(const Received& r, bool anthropic) const {
  auto header = [&](const char* name) {
    auto it = r.headers.find(name);
    return it == r.headers.end() ? std::string() : it->second;
  };
  if (!anthropic) {
    if (config_.api_key && header("authorization") != "Bearer " + *config_.api_key) {
      // OpenAI quotes (a masked form of) the key it got; this echoes it whole, the worse case.
      std::string got = header("authorization");
      return openai_fail(401, "Incorrect API key provided: " + got.substr(std::min<size_t>(got.size(), 7)) + ".",
                         "invalid_request_error", "", "invalid_api_key");
    }
    const json& j = r.json;
    if (!j.is_object() || !j.contains("model") || !j["model"].is_string() || !j.contains("messages") ||
        !j["messages"].is_array() || j["messages"].empty())
      return openai_fail(400, "you must provide a model parameter and a non-empty messages array",
                         "invalid_request_error");
    std::string model = j["model"];
    if (!config_.known_models.empty() && !config_.known_models.contains(model))
      return openai_fail(404, "The model `" + model + "` does not exist or you do not have access to it.",
                         "invalid_request_error", "", "model_not_found");
    if (config_.models_rejecting_temperature.contains(model) && j.contains("temperature"))
      return openai_fail(400, "Unsupported parameter: 'temperature' is not supported with this model.",
                         "invalid_request_error", "temperature", "unsupported_parameter");
    if (config_.models_rejecting_max_tokens.contains(model) && j.contains("max_tokens"))
      return openai_fail(400,
                         "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
                         "'max_completion_tokens' instead.",
                         "invalid_request_error", "max_tokens", "unsupported_parameter");
    return std::nullopt;
  }
  if (config_.api_key && header("x-api-key") != *config_.api_key)
    return anthropic_fail(401, "authentication_error", "invalid x-api-key");
  if (header("anthropic-version").empty())
    return anthropic_fail(400, "invalid_request_error", "anthropic-version: header is required");
  const json& j = r.json;
  if (!j.is_object()) return anthropic_fail(400, "invalid_request_error", "the request body is not valid JSON");
  if (!j.contains("max_tokens") || !j["max_tokens"].is_number_integer())
    return anthropic_fail(400, "invalid_request_error", "max_tokens: Field required");
  if (!j.contains("model") || !j["model"].is_string())
    return anthropic_fail(400, "invalid_request_error", "model: Field required");
  if (!j.contains("messages") || !j["messages"].is_array() || j["messages"].empty())
    return anthropic_fail(400, "invalid_request_error", "messages: Field required");
  for (const json& m : j["messages"])
    if (!m.is_object() || (m.value("role", "") != "user" && m.value("role", "") != "assistant"))
      return anthropic_fail(400, "invalid_request_error",
                            "messages: Unexpected role. The Messages API accepts a top-level `system` parameter, not "
                            "a \"system\" role");
  std::string model = j["model"];
  if (!config_.known_models.empty() && !config_.known_models.contains(model))
    return anthropic_fail(404, "not_found_error", "model: " + model);
  if (config_.models_rejecting_temperature.contains(model) && j.contains("temperature"))
    return anthropic_fail(400, "invalid_request_error", "`temperature` is deprecated for this model.");
  return std::nullopt;
}

void FakeLlmServer::handle(const httplib::Request& req, httplib::Response& res, bool anthropic) {
  Received r;
  r.path = req.path;
  for (const auto& [name, value] : req.headers) r.headers[lower(name)] = value;
  r.body = req.body;
  r.json = json::parse(req.body, nullptr, false);
  if (r.json.is_discarded()) r.json = nullptr;

  Scripted answer;
  {
    std::unique_lock lock(mutex_);
    received_.push_back(r);
    max_in_flight_ = std::max(max_in_flight_, ++in_flight_);
    changed_.notify_all();
    if (hold_limit_ > 0) changed_.wait_for(lock, hold_window_, [&] { return stopping_ || in_flight_ > hold_limit_; });
    std::optional<Scripted> refusal = check(r, anthropic);
    if (refusal) {
      answer = *refusal;
    } else if (!script_.empty()) {
      answer = script_.front();
      script_.pop_front();
    } else {
      answer = Scripted{200,
                        {{"Content-Type", "application/json"}},
                        anthropic ? anthropic_message("default reply") : openai_completion("default reply")};
    }
    if (answer.delay.count() > 0) changed_.wait_for(lock, answer.delay, [&] { return stopping_; });
    --in_flight_;
  }
  res.status = answer.status;
  std::string content_type = "application/json";
  for (const auto& [name, value] : answer.headers) {
    if (lower(name) == "content-type") content_type = value;
    else res.set_header(name, value);
  }
  res.set_content(answer.body, content_type.c_str());
}

}  // namespace stark::llm::testing
