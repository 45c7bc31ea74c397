#include "harness/worker/traffic.h"

#include <algorithm>
#include <limits>

namespace stark::harness {

namespace {

/// Bytes from the first to the last position where `a` and `b` differ.
uint64_t changed_span(const std::string& a, const std::string& b) {
  size_t n = std::min(a.size(), b.size());
  size_t first = 0;
  while (first < n && a[first] == b[first]) ++first;
  if (first == n) return a.size() == b.size() ? 0 : std::max(a.size(), b.size()) - n;
  size_t last = n;
  while (last > first && a[last - 1] == b[last - 1]) --last;
  return last - first;
}

}  // namespace

uint64_t compulsory_bytes(const Capture& capture, const std::set<int>& unread, const std::vector<std::string>& before,
                          const std::vector<std::string>& after) {
  std::vector<uint64_t> lowest(capture.buffers.size(), std::numeric_limits<uint64_t>::max());
  for (const auto& arg : capture.args)
    if (arg.kind == ParamKind::Pointer && arg.buffer && *arg.buffer >= 0 &&
        static_cast<size_t>(*arg.buffer) < lowest.size())
      lowest[static_cast<size_t>(*arg.buffer)] = std::min(lowest[static_cast<size_t>(*arg.buffer)], arg.offset);
  uint64_t total = 0;
  for (size_t b = 0; b < capture.buffers.size(); ++b) {
    uint64_t size = capture.buffers[b].size;
    if (!unread.count(static_cast<int>(b)) && lowest[b] < size) total += size - lowest[b];
    if (b < before.size() && b < after.size()) total += changed_span(before[b], after[b]);
  }
  return total;
}

}  // namespace stark::harness
