// The on-disk cache of model replies, keyed by the request, and the client
// decorator that serves hits from it. A re-run with the same prompts costs
// nothing and sends nothing.
#ifndef STARK_AGENTS_LLM_RESPONSE_CACHE_H
#define STARK_AGENTS_LLM_RESPONSE_CACHE_H

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/llm/chat.h"

namespace stark::llm {

/// Replies stored as one JSON file per request under a folder, named by a
/// 128-bit hash of the request. An entry holds that hash and the reply, no
/// more: not the prompts, never a key. Writes are atomic (temp file +
/// rename), so concurrent processes sharing the folder never read half an
/// entry. Every secret it was given is replaced by "[redacted]" in all it
/// writes (a server may echo a key back in its reply).
class ResponseCache {
 public:
  explicit ResponseCache(std::filesystem::path dir, std::vector<std::string> secrets = {});

  /// What identifies a request: provider, base URL (credentials removed),
  /// model, system prompt, messages, temperature and max_tokens. Never the
  /// key, never the role name.
  static nlohmann::json key_of(const std::string& provider, const std::string& base_url, const ChatRequest& request);

  /// The stored reply (cached = true, cost 0) or nullopt on a miss or an
  /// unreadable entry.
  std::optional<ChatReply> load(const nlohmann::json& key) const;

  /// Stores a reply (its wire record is not kept).
  Expected<void> store(const nlohmann::json& key, const ChatReply& reply) const;

  /// The file an entry lives in.
  std::filesystem::path path_of(const nlohmann::json& key) const;

  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  std::vector<std::string> secrets_;
};

/// Serves a request from the cache when it can, else asks the inner client
/// and stores its reply. Errors are never cached, nor are replies the
/// request's `usable` rejects (a stored one it rejects is a miss). With
/// `read` false every request is sent and its reply replaces the entry
/// (stark optimize --force). A reply that could not be stored is still
/// returned (it was paid for); store_problem() says why. Thread-safe when the
/// inner client is.
class CachingClient final : public ChatClient {
 public:
  CachingClient(std::shared_ptr<ChatClient> inner, std::shared_ptr<const ResponseCache> cache, std::string provider,
                std::string base_url, bool read = true);
  Expected<ChatReply> complete(const ChatRequest& request) override;

  /// The first failure to write an entry, if any (the caller warns once).
  std::optional<std::string> store_problem() const;

 private:
  mutable std::mutex mutex_;
  std::optional<std::string> store_problem_;
  std::shared_ptr<ChatClient> inner_;
  std::shared_ptr<const ResponseCache> cache_;
  std::string provider_, base_url_;
  bool read_ = true;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_RESPONSE_CACHE_H
