#include "rewriter/unified_diff.h"

#include <dtl/dtl.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace stark::rewriter {

namespace {

constexpr size_t kContext = 3;

/// Lines with their newline, so a last line without one differs from the
/// same text with one (and is marked in the output).
std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    out.emplace_back(text.substr(start, end - start));
    start = end;
  }
  return out;
}

struct Op {
  dtl::edit_t type;
  const std::string* line;
};

void print_line(std::string& out, char mark, const std::string& line) {
  out += mark;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(std::string_view path, std::string_view before, std::string_view after) {
  if (before == after) return {};
  std::vector<std::string> a = lines_of(before), b = lines_of(after);
  dtl::Diff<std::string> diff(a, b);
  if (a.size() + b.size() > 20000) diff.onHuge();
  diff.compose();
  std::vector<Op> ops;
  const auto sequence = diff.getSes().getSequence();
  for (const auto& [line, info] : sequence) ops.push_back({info.type, &line});
  // Within each run of changes, removed lines first, as reviewers expect.
  for (size_t r = 0; r < ops.size();) {
    if (ops[r].type == dtl::SES_COMMON) {
      ++r;
      continue;
    }
    size_t e = r;
    while (e < ops.size() && ops[e].type != dtl::SES_COMMON) ++e;
    std::stable_partition(ops.begin() + static_cast<std::ptrdiff_t>(r), ops.begin() + static_cast<std::ptrdiff_t>(e),
                          [](const Op& op) { return op.type == dtl::SES_DELETE; });
    r = e;
  }

  std::string out = fmt::format("diff --git a/{0} b/{0}\n--- a/{0}\n+++ b/{0}\n", path);
  const size_t n = ops.size();
  // Old and new line numbers (1-based) of ops[i], before it is counted.
  std::vector<size_t> old_at(n + 1, 1), new_at(n + 1, 1);
  for (size_t i = 0; i < n; ++i) {
    old_at[i + 1] = old_at[i] + (ops[i].type != dtl::SES_ADD ? 1 : 0);
    new_at[i + 1] = new_at[i] + (ops[i].type != dtl::SES_DELETE ? 1 : 0);
  }
  size_t i = 0;
  while (i < n) {
    while (i < n && ops[i].type == dtl::SES_COMMON) ++i;
    if (i == n) break;
    size_t first = i >= kContext ? i - kContext : 0;
    size_t last_change = i;
    // Extend over changes separated by at most 2 * context common lines.
    for (size_t j = i + 1; j < n; ++j) {
      if (ops[j].type == dtl::SES_COMMON) {
        if (j - last_change > 2 * kContext) break;
        continue;
      }
      last_change = j;
    }
    size_t end = std::min(n, last_change + 1 + kContext);
    size_t old_count = old_at[end] - old_at[first], new_count = new_at[end] - new_at[first];
    size_t old_start = old_count ? old_at[first] : old_at[first] - 1;
    size_t new_start = new_count ? new_at[first] : new_at[first] - 1;
    out += fmt::format("@@ -{},{} +{},{} @@\n", old_start, old_count, new_start, new_count);
    for (size_t k = first; k < end; ++k)
      print_line(out, ops[k].type == dtl::SES_ADD ? '+' : ops[k].type == dtl::SES_DELETE ? '-' : ' ', *ops[k].line);
    i = end;
  }
  return out;
}

}  // namespace stark::rewriter
