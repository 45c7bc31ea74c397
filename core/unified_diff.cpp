#include "core/unified_diff.h"

#include <dtl/dtl.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

namespace stark {

namespace {

/// One line of a file; `eol` is false only for a last line without '\n'.
struct Line {
  std::string_view text;
  bool eol = true;
};

std::vector<Line> split_lines(std::string_view s) {
  std::vector<Line> out;
  size_t at = 0;
  while (at < s.size()) {
    size_t nl = s.find('\n', at);
    if (nl == std::string_view::npos) {
      out.push_back({s.substr(at), false});
      break;
    }
    out.push_back({s.substr(at, nl - at), true});
    at = nl + 1;
  }
  return out;
}

/// One line of the edit script with its 0-based positions in both files.
struct Op {
  char mark;  // ' ', '-', '+'
  const Line* line;
  int old_at, new_at;  // index of the line (or of the next line) in each file
};

std::string hunk_range(int start, int count) {
  // An empty side names the line before it, as GNU diff and git do.
  if (count == 0) return fmt::format("{},0", start);
  if (count == 1) return fmt::format("{}", start + 1);
  return fmt::format("{},{}", start + 1, count);
}

/// The edit script from `a` to `b`, removed lines first in each block of
/// changes (as git and GNU diff print them), every op numbered in both files.
std::vector<Op> edit_script(const std::vector<Line>& a, const std::vector<Line>& b) {
  // dtl compares numbers: each distinct line gets one, so texts are never copied.
  std::vector<long> ia(a.size()), ib(b.size());
  std::map<std::pair<std::string_view, bool>, long> ids;
  auto intern = [&ids](const Line& l) -> long {
    return ids.try_emplace({l.text, l.eol}, static_cast<long>(ids.size())).first->second;
  };
  for (size_t i = 0; i < a.size(); ++i) ia[i] = intern(a[i]);
  for (size_t i = 0; i < b.size(); ++i) ib[i] = intern(b[i]);

  dtl::Diff<long, std::vector<long>> diff(ia, ib);
  if (a.size() + b.size() > 20000) diff.onHuge();  // bounded memory on big files, at some cost in minimality
  diff.compose();

  std::vector<Op> ops;
  int oi = 0, ni = 0;
  for (const auto& [elem, info] : diff.getSes().getSequence()) {
    if (info.type == dtl::SES_COMMON) {
      ops.push_back({' ', &a[oi++], 0, 0});
      ++ni;
    } else if (info.type == dtl::SES_DELETE) {
      ops.push_back({'-', &a[oi++], 0, 0});
    } else {
      ops.push_back({'+', &b[ni++], 0, 0});
    }
  }
  // Within each block of changes, removed lines first, as git and GNU diff
  // print them; then number the lines of both files.
  for (size_t i = 0; i < ops.size();) {
    size_t j = i;
    while (j < ops.size() && ops[j].mark != ' ') ++j;
    std::stable_partition(ops.begin() + i, ops.begin() + j, [](const Op& op) { return op.mark == '-'; });
    i = j == i ? i + 1 : j;
  }
  oi = ni = 0;
  for (auto& op : ops) {
    op.old_at = oi;
    op.new_at = ni;
    if (op.mark != '+') ++oi;
    if (op.mark != '-') ++ni;
  }

  return ops;
}

}  // namespace

UnifiedDiff unified_diff(std::string_view path, std::string_view before, std::string_view after, int context,
                         DiffHeader header) {
  auto a = split_lines(before);
  auto b = split_lines(after);
  auto ops = edit_script(a, b);
  UnifiedDiff out;
  size_t i = 0;
  std::string body;
  while (i < ops.size()) {
    while (i < ops.size() && ops[i].mark == ' ') ++i;
    if (i == ops.size()) break;
    // A hunk: from `context` lines before this change to `context` lines after
    // the last change that is at most 2*context common lines from the previous.
    size_t first = i >= static_cast<size_t>(context) ? i - context : 0;
    while (first < i && ops[first].mark != ' ') ++first;
    size_t last = i;  // one past the last changed op so far
    size_t j = i;
    while (j < ops.size()) {
      if (ops[j].mark != ' ') {
        last = j + 1;
        ++j;
        continue;
      }
      size_t run = j;
      while (run < ops.size() && ops[run].mark == ' ') ++run;
      if (run == ops.size() || run - j > static_cast<size_t>(2 * context)) break;
      j = run;
    }
    size_t end = std::min(ops.size(), last + context);
    int old_start = ops[first].old_at, new_start = ops[first].new_at;
    int old_count = 0, new_count = 0;
    std::string lines;
    for (size_t k = first; k < end; ++k) {
      const Op& op = ops[k];
      if (op.mark != '+') ++old_count;
      if (op.mark != '-') ++new_count;
      if (op.mark == '+') ++out.added;
      if (op.mark == '-') ++out.removed;
      lines += op.mark;
      lines += op.line->text;
      lines += '\n';
      if (!op.line->eol) lines += "\\ No newline at end of file\n";
    }
    body += fmt::format("@@ -{} +{} @@\n", hunk_range(old_start, old_count), hunk_range(new_start, new_count));
    body += lines;
    i = end;
  }
  if (body.empty()) return out;
  if (header == DiffHeader::Git) out.text = fmt::format("diff --git a/{0} b/{0}\n", path);
  out.text += fmt::format("--- a/{}\n+++ b/{}\n", path, path) + body;
  return out;
}

std::vector<ChangedSpan> changed_spans(std::string_view before, std::string_view after) {
  auto a = split_lines(before);
  auto b = split_lines(after);
  auto ops = edit_script(a, b);
  // Byte offset where line i starts (the size for i == the line count).
  auto start = [](std::string_view text, const std::vector<Line>& lines, int i) -> int64_t {
    return i < static_cast<int>(lines.size()) ? lines[i].text.data() - text.data() : static_cast<int64_t>(text.size());
  };
  std::vector<ChangedSpan> out;
  for (size_t i = 0; i < ops.size();) {
    if (ops[i].mark == ' ') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < ops.size() && ops[j].mark != ' ') ++j;
    int old_end = j < ops.size() ? ops[j].old_at : static_cast<int>(a.size());
    int new_end = j < ops.size() ? ops[j].new_at : static_cast<int>(b.size());
    int64_t nb = start(after, b, ops[i].new_at), ne = start(after, b, new_end);
    out.push_back({start(before, a, ops[i].old_at), start(before, a, old_end), std::string(after.substr(nb, ne - nb))});
    i = j;
  }
  return out;
}

}  // namespace stark
