// Host memory for snapshots, recycled: a launch's copies land in buffers an
// earlier capture of the same size already touched, so the copy does not pay
// the kernel's first-touch page faults again (the example suite's snapshots
// are mostly a few sizes of 128-256 MiB).
#ifndef STARK_HARNESS_CAPTURE_HOST_BUFFERS_H
#define STARK_HARNESS_CAPTURE_HOST_BUFFERS_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>

namespace stark::harness {

/// A snapshot's host memory (not zero-filled: the copy overwrites every byte).
struct HostCopy {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  std::string_view view() const { return {data.get(), size}; }
};

/// Free buffers by exact size, at most `max_bytes` of them kept. Thread-safe.
class HostBufferPool {
 public:
  explicit HostBufferPool(uint64_t max_bytes) : max_bytes_(max_bytes) {}
  /// A buffer of exactly n bytes: a kept one when there is one.
  HostCopy take(size_t n);
  /// Keeps the buffer for a later take() unless the pool is full.
  void give(HostCopy buffer);
  uint64_t kept_bytes() const;

 private:
  mutable std::mutex mutex_;
  std::multimap<size_t, std::unique_ptr<char[]>> free_;
  uint64_t kept_ = 0;
  uint64_t max_bytes_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_CAPTURE_HOST_BUFFERS_H
