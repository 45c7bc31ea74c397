// Host memory for snapshots, recycled: a launch's copies land in buffers an
// earlier capture of the same size already used, so they pay neither the
// first-touch page faults nor, when the pool pins its memory, the staging of
// pageable copies again (the example suite's snapshots are mostly a few sizes
// of 128-256 MiB).
#ifndef STARK_HARNESS_CAPTURE_HOST_BUFFERS_H
#define STARK_HARNESS_CAPTURE_HOST_BUFFERS_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>

namespace stark::harness {

/// How a buffer's memory goes back: delete[] or the allocator's own free.
struct HostFree {
  void (*release)(char*) = nullptr;
  /// Page-locked memory: always kept by the pool (its allocator bounds how
  /// much there is), so it is never freed while the program's CUDA contexts
  /// may be going away at exit.
  bool pinned = false;
  void operator()(char* p) const {
    if (p && release) release(p);
  }
};

/// A snapshot's host memory (not zero-filled: the copy overwrites every byte).
struct HostCopy {
  std::unique_ptr<char, HostFree> data;
  size_t size = 0;
  std::string_view view() const { return {data.get(), size}; }
  /// Ordinary heap memory.
  static HostCopy heap(size_t n);
};

/// Free buffers by exact size, at most `max_bytes` of them kept. Thread-safe.
class HostBufferPool {
 public:
  /// New buffers come from `allocate` (none: from the heap), which may fail
  /// (an empty HostCopy) and then the heap is used.
  using Allocator = std::function<HostCopy(size_t)>;
  explicit HostBufferPool(uint64_t max_bytes, Allocator allocate = {})
      : max_bytes_(max_bytes), allocate_(std::move(allocate)) {}
  /// A buffer of exactly n bytes: a kept one when there is one.
  HostCopy take(size_t n);
  /// Keeps the buffer for a later take() unless the pool is full (pinned
  /// buffers are always kept).
  void give(HostCopy buffer);
  uint64_t kept_bytes() const;

 private:
  mutable std::mutex mutex_;
  std::multimap<size_t, std::unique_ptr<char, HostFree>> free_;
  uint64_t kept_ = 0;
  uint64_t max_bytes_;
  Allocator allocate_;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_CAPTURE_HOST_BUFFERS_H
