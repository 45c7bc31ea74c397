#include "rewriter/unused_launch_variables.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/launch_expr.h"
#include "rewriter/source_scan.h"
#include "core/text.h"

namespace stark::rewriter {

namespace {

/// Whether any expression of the override reads `dim` ("grid" or "block").
bool override_reads(const LaunchOverride& launch, std::string_view dim) {
  std::vector<std::string> all = launch.grid;
  all.insert(all.end(), launch.block.begin(), launch.block.end());
  if (launch.shmem) all.push_back(*launch.shmem);
  for (const auto& text : all) {
    auto e = LaunchExpr::parse(text);
    if (!e) return true;  // unreadable: assume it does
    for (const auto& name : e->names())
      if (name.substr(0, name.find('.')) == dim) return true;
  }
  return false;
}

/// The manifest is untrusted: the range must hold one declaration of the
/// variable (`[const] type name(...);`, `= ...;` or `{...};`), and each
/// use must be the name itself.
bool matches_file(const LaunchVariable& v, std::string_view content) {
  auto in = [&](const ByteRange& r) {
    return r.begin >= 0 && r.begin <= r.end && r.end <= static_cast<int64_t>(content.size());
  };
  if (v.name.empty() || !std::all_of(v.name.begin(), v.name.end(), is_identifier_char) || !in(v.decl)) return false;
  for (const auto& u : v.uses)
    if (!in(u) || content.substr(static_cast<size_t>(u.begin), static_cast<size_t>(u.end - u.begin)) != v.name)
      return false;
  std::string code =
      code_mask(content.substr(static_cast<size_t>(v.decl.begin), static_cast<size_t>(v.decl.end - v.decl.begin)));
  if (code.empty() || code.back() != ';' || code.find(';') != code.size() - 1) return false;
  for (size_t at = code.find(v.name); at != std::string::npos; at = code.find(v.name, at + 1)) {
    bool whole = (at == 0 || !is_identifier_char(code[at - 1])) &&
                 (at + v.name.size() == code.size() || !is_identifier_char(code[at + v.name.size()]));
    if (!whole) continue;
    std::string_view type(code.data(), at);
    bool type_like = at > 0 && std::all_of(type.begin(), type.end(), [](char c) {
                       return is_identifier_char(c) || std::isspace(static_cast<unsigned char>(c)) || c == ':' ||
                              c == '<' || c == '>' || c == ',';
                     });
    size_t next = code.find_first_not_of(" \t\r\n", at + v.name.size());
    return type_like && next != std::string::npos &&
           std::string_view("({=;").find(code[next]) != std::string_view::npos;
  }
  return false;
}

bool inside(const ByteRange& r, const TextEdit& e) { return e.begin < e.end && e.begin <= r.begin && r.end <= e.end; }

/// The declaration's range, widened to its whole lines when nothing else is on them.
TextEdit deletion(const LaunchVariable& v, std::string_view content) {
  size_t begin = static_cast<size_t>(v.decl.begin), end = static_cast<size_t>(v.decl.end);
  size_t first = line_start(content, begin);
  size_t last = content.find('\n', end);
  auto blank = [&](size_t from, size_t to) {
    return std::all_of(content.begin() + static_cast<long>(from), content.begin() + static_cast<long>(to),
                       [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
  };
  if (blank(first, begin) && last != std::string_view::npos && blank(end, last)) {
    begin = first;
    end = last + 1;
  }
  return {static_cast<int64_t>(begin), static_cast<int64_t>(end), "", "unused launch variable " + v.name};
}

}  // namespace

std::vector<TextEdit> unused_variable_deletions(const std::vector<const Launch*>& sites, const LaunchOverride& launch,
                                                std::string_view content, const std::vector<TextEdit>& edits) {
  std::map<int64_t, LaunchVariable> candidates;  // by declaration offset: template sites repeat per instantiation
  bool grid_free = !launch.grid.empty() && !override_reads(launch, "grid");
  bool block_free = !launch.block.empty() && !override_reads(launch, "block");
  for (const Launch* site : sites) {
    if (grid_free && site->grid_var) candidates.emplace(site->grid_var->decl.begin, *site->grid_var);
    if (block_free && site->block_var) candidates.emplace(site->block_var->decl.begin, *site->block_var);
  }
  std::vector<TextEdit> out;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = candidates.begin(); it != candidates.end();) {
      const LaunchVariable& v = it->second;
      bool unread =
          matches_file(v, content) && std::all_of(v.uses.begin(), v.uses.end(), [&](const ByteRange& u) {
            auto covers = [&](const TextEdit& e) { return inside(u, e); };
            return std::any_of(edits.begin(), edits.end(), covers) || std::any_of(out.begin(), out.end(), covers);
          });
      if (!unread) {
        ++it;
        continue;
      }
      out.push_back(deletion(v, content));
      it = candidates.erase(it);
      changed = true;
    }
  }
  return out;
}

}  // namespace stark::rewriter
