#include "agents/grounded.h"

#include <fmt/format.h>

#include <cctype>
#include <regex>
#include <set>

#include "core/text.h"

namespace stark {

namespace {

const std::regex& open_marker() {
  static const std::regex re(R"(/\*\s*STARK_SPAN\s+(\d+)\s*:([\s\S]*?)\*/)");
  return re;
}

const std::regex& any_marker() {
  static const std::regex re(R"(/\*\s*STARK_(SPAN|END)\b)");
  return re;
}

}  // namespace

Expected<std::vector<Span>> parse_spans(std::string_view grounded) {
  std::string text(grounded);
  std::vector<Span> spans;
  std::set<int> seen;
  auto begin = std::sregex_iterator(text.begin(), text.end(), open_marker());
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    Span s;
    s.id = std::stoi((*it)[1].str());
    s.instruction = std::string(trim((*it)[2].str()));
    if (s.instruction.empty()) return Error{fmt::format("span {} has no instruction", s.id)};
    if (!seen.insert(s.id).second) return Error{fmt::format("span {} is marked twice", s.id)};
    size_t code_begin = static_cast<size_t>(it->position() + it->length());
    std::regex end_re(fmt::format(R"(/\*\s*STARK_END\s+{}\s*\*/)", s.id));
    std::smatch end;
    std::string rest = text.substr(code_begin);
    if (!std::regex_search(rest, end, end_re)) return Error{fmt::format("span {} is never closed (STARK_END {})", s.id, s.id)};
    s.code = rest.substr(0, static_cast<size_t>(end.position()));
    if (std::regex_search(s.code, open_marker())) return Error{fmt::format("span {} contains another span", s.id)};
    spans.push_back(std::move(s));
  }
  // Every END must close a SPAN that was opened.
  static const std::regex end_any(R"(/\*\s*STARK_END\s+(\d+)\s*\*/)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), end_any); it != std::sregex_iterator(); ++it)
    if (!seen.count(std::stoi((*it)[1].str())))
      return Error{fmt::format("STARK_END {} has no matching STARK_SPAN", (*it)[1].str())};
  return spans;
}

std::string ground_whole_body(std::string_view source, const ByteRange& body, std::string_view instruction) {
  // Keep the braces outside the span: the code role rewrites what is inside.
  size_t open = static_cast<size_t>(body.begin) + 1;
  size_t close = static_cast<size_t>(body.end) - 1;
  std::string out(source.substr(0, open));
  out += fmt::format("\n/*STARK_SPAN 1: {}*/", instruction);
  out += source.substr(open, close - open);
  out += "/*STARK_END 1*/\n";
  out += source.substr(close);
  return out;
}

namespace {

/// Index just past the comment or literal starting at i, or i if none starts there.
size_t skip_comment_or_literal(std::string_view s, size_t i) {
  if (s.compare(i, 2, "//") == 0) {
    size_t nl = s.find('\n', i);
    return nl == std::string_view::npos ? s.size() : nl + 1;
  }
  if (s.compare(i, 2, "/*") == 0) {
    size_t end = s.find("*/", i + 2);
    return end == std::string_view::npos ? s.size() : end + 2;
  }
  if (s[i] == '"' || s[i] == '\'') {
    char q = s[i];
    for (size_t j = i + 1; j < s.size(); ++j) {
      if (s[j] == '\\') ++j;
      else if (s[j] == q) return j + 1;
    }
    return s.size();
  }
  return i;
}

/// Index of the bracket matching the one at open, or npos.
size_t matching(std::string_view s, size_t open, char open_c, char close_c) {
  int depth = 0;
  for (size_t i = open; i < s.size();) {
    size_t skipped = skip_comment_or_literal(s, i);
    if (skipped != i) {
      i = skipped;
      continue;
    }
    if (s[i] == open_c) ++depth;
    else if (s[i] == close_c && --depth == 0) return i;
    ++i;
  }
  return std::string_view::npos;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::optional<ByteRange> find_body(std::string_view s, std::string_view name) {
  for (size_t at = s.find(name); at != std::string_view::npos; at = s.find(name, at + 1)) {
    if ((at > 0 && is_ident(s[at - 1])) || (at + name.size() < s.size() && is_ident(s[at + name.size()]))) continue;
    size_t p = at + name.size();
    while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p]))) ++p;
    if (p >= s.size() || s[p] != '(') continue;
    size_t close = matching(s, p, '(', ')');
    if (close == std::string_view::npos) return std::nullopt;
    size_t open = s.find('{', close);
    size_t semi = s.find(';', close);
    if (open == std::string_view::npos || (semi != std::string_view::npos && semi < open)) continue;  // a declaration
    size_t end = matching(s, open, '{', '}');
    if (end == std::string_view::npos) return std::nullopt;
    return ByteRange{static_cast<int64_t>(open), static_cast<int64_t>(end + 1)};
  }
  return std::nullopt;
}

Expected<void> check_spans_filled(std::string_view code) {
  std::string text(code);
  std::smatch m;
  if (std::regex_search(text, m, any_marker()))
    return Error{fmt::format("the kernel still contains the marker '{}...': every marked span must be replaced by "
                             "its new code and every STARK_SPAN/STARK_END marker removed",
                             m.str())};
  return {};
}

}  // namespace stark
