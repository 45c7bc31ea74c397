#include "agents/llm/audit_log.h"

#include <fcntl.h>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "agents/llm/http.h"
#include "core/file_io.h"

namespace stark::llm {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr const char* kSchema = "stark.llm_audit/1";

std::string file_role(const std::string& role) {
  std::string out;
  for (char c : role) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return out.empty() ? "request" : out;
}

std::string utc_now() {
  auto now = std::chrono::system_clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03d}Z", fmt::gmtime(std::chrono::system_clock::to_time_t(now)), ms);
}

}  // namespace

AuditLog::AuditLog(fs::path dir, std::vector<std::string> secrets)
    : dir_(std::move(dir)), secrets_(std::move(secrets)) {
  std::erase(secrets_, std::string());
}

Expected<fs::path> AuditLog::claim(const std::string& role) {
  std::lock_guard lock(mutex_);
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Error{fmt::format("cannot create the audit folder '{}': {}", dir_.string(), ec.message())};
  if (!scanned_) {  // continue after the records a previous run left
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
      std::string name = entry.path().filename().string();
      if (name.size() > 7 && name[6] == '-' && std::all_of(name.begin(), name.begin() + 6, ::isdigit))
        next_ = std::max(next_, std::stoi(name.substr(0, 6)) + 1);
    }
    scanned_ = true;
  }
  for (;; ++next_) {
    fs::path path = dir_ / fmt::format("{:06d}-{}.json", next_, file_role(role));
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::close(fd);
      ++next_;
      return path;
    }
    if (errno != EEXIST) return Error{fmt::format("cannot create '{}': {}", path.string(), std::strerror(errno))};
  }
}

Expected<void> AuditLog::write(const fs::path& path, const json& record) const {
  std::string text = record.dump(2) + "\n";
  for (const auto& secret : secrets_) text = scrub(std::move(text), secret);
  if (auto ok = write_file_atomic(path, text); !ok)
    return Error{fmt::format("cannot write the audit log: {}", ok.error().message)};
  return {};
}

AuditingClient::AuditingClient(std::shared_ptr<ChatClient> inner, std::shared_ptr<AuditLog> log, std::string backend,
                               std::string base_url)
    : inner_(std::move(inner)), log_(std::move(log)), backend_(std::move(backend)), base_url_(std::move(base_url)) {}

Expected<ChatReply> AuditingClient::complete(const ChatRequest& request) {
  auto path = log_->claim(request.role_name);
  if (!path) return path.error();
  json record = {{"schema", kSchema},
                 {"file", path->filename().string()},
                 {"role", request.role_name},
                 {"backend", backend_},
                 {"base_url", base_url_},
                 {"model", request.model},
                 {"started_at", utc_now()},
                 {"status", "in_flight"},  // rewritten when the call ends
                 {"request", request_to_json(request)}};
  if (auto ok = log_->write(*path, record); !ok) return Error{ok.error().message + " (the request was not sent)"};

  auto start = std::chrono::steady_clock::now();
  auto reply = inner_->complete(request);
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  record["duration_ms"] = elapsed.count();
  if (reply) {
    record["status"] = "ok";
    record["cache_hit"] = reply->cached;
    record["reply"] = reply_to_json(*reply);
  } else {
    record["status"] = "error";
    record["cache_hit"] = false;
    record["error"] = reply.error().message;
  }
  if (auto ok = log_->write(*path, record); !ok) return ok.error();
  return reply;
}

}  // namespace stark::llm
