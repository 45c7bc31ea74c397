// A real HTTP server on 127.0.0.1 for the LLM client tests, speaking the
// OpenAI Chat Completions and Anthropic Messages APIs. It encodes our reading
// of the published references: it checks each request as the service would
// and answers violations with that API's error shape; valid requests get the
// next scripted answer.
#ifndef STARK_AGENTS_LLM_TESTING_FAKE_LLM_SERVER_H
#define STARK_AGENTS_LLM_TESTING_FAKE_LLM_SERVER_H

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace stark::llm::testing {

/// One scripted answer.
struct Scripted {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds delay{0};  // wait before answering (to outlast a client's timeout)
};

/// A request as the server received it.
struct Received {
  std::string path;
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  nlohmann::json json;  // null when the body is not JSON
};

/// How the server behaves like the real services (chainable setters).
struct FakeServerConfig {
  std::optional<std::string> api_key;                  // required (Bearer / x-api-key) when set
  std::set<std::string> models_rejecting_temperature;  // 400 with the API's real error shape
  std::set<std::string> models_rejecting_max_tokens;   // OpenAI: 400 "Use 'max_completion_tokens' instead."
  std::set<std::string> known_models;                  // when not empty, others get the API's 404

  FakeServerConfig& key(std::string k) {
    api_key = std::move(k);
    return *this;
  }
  FakeServerConfig& reject_temperature(std::set<std::string> models) {
    models_rejecting_temperature = std::move(models);
    return *this;
  }
  FakeServerConfig& reject_max_tokens(std::set<std::string> models) {
    models_rejecting_max_tokens = std::move(models);
    return *this;
  }
  FakeServerConfig& known(std::set<std::string> models) {
    known_models = std::move(models);
    return *this;
  }
};

/// The server. Requests that pass the API checks take the scripted answers in
/// order; with the script used up they get a good default reply.
class FakeLlmServer {
 public:
  explicit FakeLlmServer(FakeServerConfig config = {});
  ~FakeLlmServer();
  FakeLlmServer(const FakeLlmServer&) = delete;
  FakeLlmServer& operator=(const FakeLlmServer&) = delete;

  int port() const { return port_; }
  std::string openai_base() const;     // http://127.0.0.1:PORT/v1
  std::string anthropic_base() const;  // http://127.0.0.1:PORT

  void script(Scripted answer);
  std::vector<Received> received() const;
  int count() const;

  /// Makes each request wait up to `window` for more than `limit` requests to
  /// be in flight at once, so a client that keeps to a cap of `limit` shows
  /// exactly `limit` as the most in flight, and one that does not shows more.
  void hold(int limit, std::chrono::milliseconds window);
  int max_in_flight() const;

 private:
  void handle(const httplib::Request& req, httplib::Response& res, bool anthropic);
  std::optional<Scripted> check(const Received& r, bool anthropic) const;

  FakeServerConfig config_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Scripted> script_;
  std::vector<Received> received_;
  int in_flight_ = 0, max_in_flight_ = 0;
  int hold_limit_ = 0;
  std::chrono::milliseconds hold_window_{0};
  bool stopping_ = false;
};

/// A chat.completion body.
std::string openai_completion(const std::string& text, const std::string& finish_reason = "stop",
                              int prompt_tokens = 12, int completion_tokens = 7, int cached_tokens = 0);
/// An OpenAI error body: {"error": {"message", "type", "param", "code"}}.
std::string openai_error(const std::string& message, const std::string& type, const std::string& param = "",
                         const std::string& code = "");
/// A Messages API message body.
std::string anthropic_message(const std::string& text, const std::string& stop_reason = "end_turn",
                              int input_tokens = 12, int output_tokens = 7);
/// An Anthropic error body: {"type": "error", "error": {"type", "message"}, "request_id"}.
std::string anthropic_error(const std::string& type, const std::string& message);

}  // namespace stark::llm::testing

#endif  // STARK_AGENTS_LLM_TESTING_FAKE_LLM_SERVER_H
