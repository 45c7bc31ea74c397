#include "core/text_edit.h"

#include <fmt/format.h>

#include <algorithm>

namespace stark {

Expected<std::string> apply_edits(std::string_view original, std::vector<TextEdit> edits) {
  const auto size = static_cast<int64_t>(original.size());
  for (const auto& e : edits)
    if (e.begin < 0 || e.end < e.begin || e.end > size)
      return Error{
          fmt::format("{}: byte range [{}, {}) lies outside the file ({} bytes)", e.what, e.begin, e.end, size)};
  // Stable: insertions at the same offset keep their given order.
  std::stable_sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    return (a.end == a.begin) && (b.end != b.begin);  // insertion before a replacement starting there
  });
  std::string out;
  out.reserve(original.size());
  int64_t at = 0;
  const TextEdit* previous = nullptr;
  for (const auto& e : edits) {
    if (e.begin < at)
      return Error{fmt::format("{} overlaps {} (bytes {}..{} and {}..{})", e.what, previous ? previous->what : "",
                               e.begin, e.end, previous ? previous->begin : 0, previous ? previous->end : 0)};
    out.append(original.substr(static_cast<size_t>(at), static_cast<size_t>(e.begin - at)));
    out += e.text;
    at = e.end;
    previous = &e;
  }
  out.append(original.substr(static_cast<size_t>(at)));
  return out;
}

}  // namespace stark
