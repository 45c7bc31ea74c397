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

#include <nlohmann/json.hpp>

#include "agents/llm/chat.h"

namespace stark::llm {

/// Replies stored as one JSON file per request under a folder. Writes are
/// atomic (temp file + rename), so concurrent processes sharing the folder
/// never read half an entry; an entry also holds its full key so a hash
/// collision reads as a miss.
class ResponseCache {
 public:
  explicit ResponseCache(std::filesystem::path dir);

  /// What identifies a request: provider, base URL, model, system prompt,
  /// messages, temperature and max_tokens. Never the key, never the role name.
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
};

/// Serves a request from the cache when it can, else asks the inner client
/// and stores its reply. Errors are never cached. A reply that could not be
/// stored is still returned (it was paid for); store_problem() says why.
/// Thread-safe when the inner client is.
class CachingClient final : public ChatClient {
 public:
  CachingClient(std::shared_ptr<ChatClient> inner, std::shared_ptr<const ResponseCache> cache, std::string provider,
                std::string base_url);
  Expected<ChatReply> complete(const ChatRequest& request) override;

  /// The first failure to write an entry, if any (the caller warns once).
  std::optional<std::string> store_problem() const;

 private:
  mutable std::mutex mutex_;
  std::optional<std::string> store_problem_;
  std::shared_ptr<ChatClient> inner_;
  std::shared_ptr<const ResponseCache> cache_;
  std::string provider_, base_url_;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_RESPONSE_CACHE_H
