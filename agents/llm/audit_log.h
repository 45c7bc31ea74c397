// The audit log: every model request and its outcome as a numbered JSON file
// under a folder (the result directory's audit/), so a user can see exactly
// what left the machine, when, what came back and what it cost.
#ifndef STARK_AGENTS_LLM_AUDIT_LOG_H
#define STARK_AGENTS_LLM_AUDIT_LOG_H

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agents/llm/chat.h"

namespace stark::llm {

/// Numbered audit files ("000001-plan.json", ...). Numbers continue after the
/// files already there and are claimed with O_EXCL, so two processes sharing
/// the folder never overwrite each other. Every secret it was given is
/// replaced by "[redacted]" in all it writes. Thread-safe.
class AuditLog {
 public:
  explicit AuditLog(std::filesystem::path dir, std::vector<std::string> secrets = {});

  /// Claims the next number for a record of the given role.
  Expected<std::filesystem::path> claim(const std::string& role);

  /// Writes (or rewrites) a record atomically, secrets scrubbed.
  Expected<void> write(const std::filesystem::path& path, const nlohmann::json& record) const;

  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  std::vector<std::string> secrets_;
  std::mutex mutex_;
  int next_ = 1;
  bool scanned_ = false;
};

/// Records each call: the request is written before it is sent (a failure to
/// write means it is not sent), then rewritten with the reply or the error,
/// the duration, tokens, cost and whether the cache answered. A failure to
/// write that outcome is the call's Error: the log is the promise that every
/// exchange is kept.
class AuditingClient final : public ChatClient {
 public:
  AuditingClient(std::shared_ptr<ChatClient> inner, std::shared_ptr<AuditLog> log, std::string backend,
                 std::string base_url);
  Expected<ChatReply> complete(const ChatRequest& request) override;

 private:
  std::shared_ptr<ChatClient> inner_;
  std::shared_ptr<AuditLog> log_;
  std::string backend_, base_url_;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_AUDIT_LOG_H
