#include "harness/capture/host_buffers.h"

namespace stark::harness {

HostCopy HostCopy::heap(size_t n) {
  return HostCopy{std::unique_ptr<char, HostFree>(new char[n], HostFree{[](char* p) { delete[] p; }}), n};
}

HostCopy HostBufferPool::take(size_t n) {
  {
    std::lock_guard lock(mutex_);
    auto it = free_.find(n);
    if (it != free_.end()) {
      HostCopy c{std::move(it->second), n};
      free_.erase(it);
      kept_ -= n;
      return c;
    }
  }
  if (allocate_) {
    HostCopy c = allocate_(n);
    if (c.data) return c;
  }
  return HostCopy::heap(n);
}

void HostBufferPool::give(HostCopy buffer) {
  if (!buffer.data || buffer.size == 0) return;
  std::lock_guard lock(mutex_);
  if (kept_ + buffer.size > max_bytes_ && !buffer.data.get_deleter().pinned) return;  // freed here
  kept_ += buffer.size;
  free_.emplace(buffer.size, std::move(buffer.data));
}

uint64_t HostBufferPool::kept_bytes() const {
  std::lock_guard lock(mutex_);
  return kept_;
}

}  // namespace stark::harness
