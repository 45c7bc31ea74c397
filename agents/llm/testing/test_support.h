// Small helpers the LLM client tests share: a retry policy that records its
// waits instead of sleeping, a port with nothing listening on it, and a search
// of a folder for leaked text. Temporary folders come from tests/support/temp_dir.h.
#ifndef STARK_AGENTS_LLM_TESTING_TEST_SUPPORT_H
#define STARK_AGENTS_LLM_TESTING_TEST_SUPPORT_H

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "agents/llm/retry.h"
#include "core/file_io.h"

namespace stark::llm::testing {

/// The waits a RetryPolicy asked for, in order.
struct RecordedWaits {
  std::mutex mutex;
  std::vector<std::chrono::milliseconds> waits;
  std::vector<std::chrono::milliseconds> get() {
    std::lock_guard lock(mutex);
    return waits;
  }
};

/// A policy with a fixed seed whose waits are recorded, not slept.
inline RetryPolicy recording_policy(const std::shared_ptr<RecordedWaits>& record, int max_attempts = 4) {
  RetryPolicy p;
  p.max_attempts = max_attempts;
  p.base_delay = std::chrono::milliseconds(500);
  p.max_delay = std::chrono::milliseconds(8000);
  p.jitter = 0.25;
  p.seed = 42;
  p.sleep = [record](std::chrono::milliseconds d) {
    std::lock_guard lock(record->mutex);
    record->waits.push_back(d);
  };
  return p;
}

/// A TCP port on 127.0.0.1 that was free a moment ago and has no listener.
inline int closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
    throw std::runtime_error("cannot find a free port");
  ::close(fd);  // bound but never listened: connections are refused
  return ntohs(addr.sin_port);
}

/// Every regular file under dir whose bytes contain needle.
inline std::vector<std::filesystem::path> files_containing(const std::filesystem::path& dir,
                                                           const std::string& needle) {
  std::vector<std::filesystem::path> hits;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    auto text = read_file(entry.path());
    if (text && text->find(needle) != std::string::npos) hits.push_back(entry.path());
  }
  return hits;
}

}  // namespace stark::llm::testing

#endif  // STARK_AGENTS_LLM_TESTING_TEST_SUPPORT_H
