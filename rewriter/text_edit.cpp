#include "rewriter/text_edit.h"

#include <fmt/format.h>

#include <algorithm>

namespace stark::rewriter {

Expected<void> check_range(std::string_view field, int64_t begin, int64_t end, size_t size) {
  if (begin < 0 || end < begin || end > static_cast<int64_t>(size))
    return Error{fmt::format("the manifest's {} [{}, {}) does not fit the file ({} bytes); scan again", field, begin,
                             end, size)};
  return {};
}

int line_of(std::string_view content, int64_t offset) {
  offset = std::clamp<int64_t>(offset, 0, static_cast<int64_t>(content.size()));
  return 1 + static_cast<int>(std::count(content.begin(), content.begin() + offset, '\n'));
}

}  // namespace stark::rewriter
