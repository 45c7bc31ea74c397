#include "agents/llm/response_cache.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>

#include "agents/llm/http.h"
#include "core/file_io.h"
#include "core/json_optional.h"

namespace stark::llm {

using nlohmann::json;

namespace {

constexpr const char* kSchema = "stark.llm_cache/2";

/// 32 hex digits of the key's XXH3-128 (object keys dump sorted, so stable).
std::string key_hash(const json& key) {
  std::string text = key.dump();
  XXH128_hash_t h = XXH3_128bits(text.data(), text.size());
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

}  // namespace

ResponseCache::ResponseCache(std::filesystem::path dir, std::vector<std::string> secrets)
    : dir_(std::move(dir)), secrets_(std::move(secrets)) {
  std::erase(secrets_, std::string());
}

json ResponseCache::key_of(const std::string& provider, const std::string& base_url, const ChatRequest& request) {
  json messages = json::array();
  for (const auto& m : request.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  return {{"provider", provider},
          {"base_url", redact_url(base_url)},
          {"model", request.model},
          {"system", request.system},
          {"messages", std::move(messages)},
          {"temperature", or_null(request.temperature)},
          {"max_tokens", request.max_tokens}};
}

std::filesystem::path ResponseCache::path_of(const json& key) const { return dir_ / (key_hash(key) + ".json"); }

std::optional<ChatReply> ResponseCache::load(const json& key) const {
  std::error_code ec;
  std::filesystem::path path = path_of(key);
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  auto entry = read_json_file(path);
  if (!entry || !entry->is_object() || entry->value("schema", "") != kSchema || !entry->contains("reply") ||
      entry->value("key", "") != key_hash(key))
    return std::nullopt;
  auto reply = reply_from_json((*entry)["reply"]);
  if (!reply) return std::nullopt;
  reply->cached = true;
  reply->cost_usd = 0.0;  // nothing was billed for this answer
  reply->wire.reset();
  return std::move(*reply);
}

Expected<void> ResponseCache::store(const json& key, const ChatReply& reply) const {
  ChatReply stored = reply;
  stored.wire.reset();
  stored.cached = false;
  std::string text = json{{"schema", kSchema}, {"key", key_hash(key)}, {"reply", reply_to_json(stored)}}.dump(2) + "\n";
  for (const auto& secret : secrets_) text = scrub(std::move(text), secret);
  if (auto ok = write_file_atomic(path_of(key), text); !ok)
    return Error{fmt::format("cannot write the response cache: {}", ok.error().message)};
  return {};
}

CachingClient::CachingClient(std::shared_ptr<ChatClient> inner, std::shared_ptr<const ResponseCache> cache,
                             std::string provider, std::string base_url, bool read)
    : inner_(std::move(inner)),
      cache_(std::move(cache)),
      provider_(std::move(provider)),
      base_url_(std::move(base_url)),
      read_(read) {}

std::optional<std::string> CachingClient::store_problem() const {
  std::lock_guard lock(mutex_);
  return store_problem_;
}

Expected<ChatReply> CachingClient::complete(const ChatRequest& request) {
  json key = ResponseCache::key_of(provider_, base_url_, request);
  auto usable = [&](const ChatReply& r) { return !request.usable || request.usable(r); };
  if (read_)
    if (auto hit = cache_->load(key); hit && usable(*hit)) return std::move(*hit);
  auto reply = inner_->complete(request);
  if (!reply || !usable(*reply)) return reply;      // asked again next time
  if (auto ok = cache_->store(key, *reply); !ok) {  // the paid reply is still good: keep it, report the problem
    std::lock_guard lock(mutex_);
    if (!store_problem_) store_problem_ = ok.error().message;
  }
  return reply;
}

}  // namespace stark::llm
