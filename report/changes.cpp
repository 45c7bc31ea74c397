#include "report/changes.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/file_io.h"
#include "core/hash.h"
#include "core/paths.h"
#include "core/text.h"
#include "core/unified_diff.h"

namespace stark::report {

namespace fs = std::filesystem;

namespace {

/// End of the bracketed group opening at s[at] ('(' or '['), skipping string
/// and character literals; npos when it is not closed.
size_t match_group(std::string_view s, size_t at) {
  int depth = 0;
  for (size_t i = at; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"' || c == '\'') {
      for (++i; i < s.size() && s[i] != c; ++i)
        if (s[i] == '\\') ++i;
      continue;
    }
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

/// [begin, end) of the annotation in a kernel's original text, or {npos, npos}.
std::pair<size_t, size_t> find_annotation(std::string_view s) {
  for (std::string_view start : {"[[stark::optimize", "STARK_OPTIMIZE"}) {
    size_t at = s.find(start);
    if (at == std::string_view::npos) continue;
    size_t end = at + start.size();
    size_t open = start[0] == '[' ? at : s.find('(', end);
    // STARK_OPTIMIZE may stand without parentheses; [[...]] always closes.
    if (start[0] == '[' || (open != std::string_view::npos && trim(s.substr(end, open - end)).empty())) {
      end = match_group(s, open);
      if (end == std::string_view::npos) continue;
    }
    return {at, end};
  }
  return {std::string_view::npos, std::string_view::npos};
}

/// Offset just past "template <...>" and the blank after it, at the start of s; npos if none.
size_t after_template_header(std::string_view s) {
  size_t i = s.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || s.substr(i, 8) != "template") return std::string_view::npos;
  size_t open = s.find('<', i);
  if (open == std::string_view::npos) return open;
  int depth = 0, parens = 0;  // a '>' inside parentheses is a comparison: (4 > 2)
  for (size_t k = open; k < s.size(); ++k) {
    if (s[k] == '(') ++parens;
    if (s[k] == ')') --parens;
    if (parens > 0) continue;
    if (s[k] == '<') ++depth;
    if (s[k] == '>' && --depth == 0) {
      size_t next = s.find_first_not_of(" \t\r\n", k + 1);
      return next == std::string_view::npos ? s.size() : next;
    }
  }
  return std::string_view::npos;
}

std::string launch_text(const LaunchOverride& l) {
  std::vector<std::string> parts;
  auto dims = [](const std::vector<std::string>& d) { return d.size() == 1 ? d[0] : "(" + join(d, ", ") + ")"; };
  if (!l.grid.empty()) parts.push_back("grid " + dims(l.grid));
  if (!l.block.empty()) parts.push_back("block " + dims(l.block));
  if (l.shmem) parts.push_back("shmem " + *l.shmem);
  return join(parts, "; ");
}

}  // namespace

TextPosition position_of(std::string_view text, int64_t offset) {
  TextPosition p;
  for (int64_t i = 0; i < offset && i < static_cast<int64_t>(text.size()); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++p.column;  // UTF-8 lead bytes only
    }
  }
  return p;
}

std::string keep_annotation(std::string_view original, std::string source) {
  if (find_annotation(source).first != std::string_view::npos) return source;
  auto [begin, end] = find_annotation(original);
  if (begin == std::string_view::npos) return source;
  size_t sep_end = original.find_first_not_of(" \t\r\n", end);
  std::string annotation(original.substr(begin, (sep_end == std::string_view::npos ? end : sep_end) - begin));
  std::string_view before = original.substr(0, begin);
  if (trim(before).empty()) {
    size_t first = source.find_first_not_of(" \t\r\n");
    return source.insert(first == std::string::npos ? 0 : first, annotation);
  }
  // A template kernel: the annotation follows the template header.
  if (after_template_header(before) == begin) {
    size_t at = after_template_header(source);
    if (at != std::string::npos) return source.insert(at, annotation);
  }
  return source;
}

std::vector<SourceEdit> edits_between(const std::string& file, std::string_view original, std::string_view updated) {
  std::vector<SourceEdit> out;
  for (auto& span : changed_spans(original, updated))
    out.push_back({file, {span.begin, span.end}, std::move(span.text)});
  return out;
}

Expected<EditPlan> kernel_range_edits(const Kernel& kernel, const KernelResult& result, const fs::path& source_root) {
  if (!result.best) return Error{fmt::format("kernel '{}' has no best variant", kernel.id)};
  auto path = confine_path(source_root, kernel.file);
  if (!path) return Error{fmt::format("the manifest's path {}", path.error().message)};
  auto text = read_file(*path);
  if (!text) return text.error();
  if (kernel.range.begin < 0 || kernel.range.end < kernel.range.begin ||
      static_cast<size_t>(kernel.range.end) > text->size())
    return Error{fmt::format("kernel '{}': range {}..{} lies outside {} ({} bytes); re-run stark scan", kernel.id,
                             kernel.range.begin, kernel.range.end, kernel.file, text->size())};
  std::string_view original = std::string_view(*text).substr(kernel.range.begin, kernel.range.end - kernel.range.begin);
  EditPlan plan;
  plan.edits.push_back({kernel.file, kernel.range, keep_annotation(original, result.best->source)});
  if (!result.best->launch.empty() && !kernel.launches.empty())
    plan.notes.push_back(
        fmt::format("launch change not in this diff: {} at {} launch site{} (stark apply --mode "
                    "patch writes it)",
                    launch_text(result.best->launch), kernel.launches.size(), kernel.launches.size() == 1 ? "" : "s"));
  return plan;
}

Expected<KernelChange> apply_plan(const EditPlan& plan, const fs::path& source_root,
                                  const std::map<std::string, FileEntry>& hashes) {
  KernelChange change;
  change.edits = plan.edits;
  change.notes = plan.notes;
  change.regions.resize(plan.edits.size());
  std::map<std::string, std::vector<size_t>> by_file;  // file -> indices of its edits
  for (size_t i = 0; i < plan.edits.size(); ++i) by_file[plan.edits[i].file].push_back(i);
  for (auto& [file, edits] : by_file) {
    auto path = confine_path(source_root, file);
    if (!path) return Error{fmt::format("the manifest's path {}", path.error().message)};
    auto text = read_file(*path);
    if (!text) return text.error();
    if (auto h = hashes.find(file); h != hashes.end() && h->second.hash != content_hash(*text))
      return Error{
          fmt::format("{} changed since the scan (content hash differs from the manifest); re-run stark scan", file)};
    std::sort(edits.begin(), edits.end(),
              [&](size_t x, size_t y) { return plan.edits[x].range.begin > plan.edits[y].range.begin; });
    std::string after = *text;
    int64_t limit = static_cast<int64_t>(text->size());
    for (size_t i : edits) {
      const SourceEdit& e = plan.edits[i];
      if (e.range.begin < 0 || e.range.end < e.range.begin || e.range.end > limit)
        return Error{fmt::format("edit {}..{} of {} overlaps another or lies outside the file", e.range.begin,
                                 e.range.end, file)};
      change.regions[i] = {position_of(*text, e.range.begin), position_of(*text, e.range.end)};
      after.replace(e.range.begin, e.range.end - e.range.begin, e.replacement);
      limit = e.range.begin;
    }
    auto d = unified_diff(file, *text, after);
    change.diff += d.text;
    change.added += d.added;
    change.removed += d.removed;
  }
  return change;
}

}  // namespace stark::report
