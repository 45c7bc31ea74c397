#include "agents/grounded.h"

#include <fmt/format.h>

#include <cctype>
#include <deque>
#include <map>
#include <set>

#include "core/cpp_tokens.h"
#include "core/text.h"

namespace stark {

namespace {

constexpr size_t npos = std::string_view::npos;

/// A STARK_SPAN or STARK_END marker found in the text.
struct Marker {
  bool open = false;
  int id = 0;
  size_t begin = 0, end = 0;     // the comment, "/*" to "*/" inclusive
  std::string_view instruction;  // STARK_SPAN only
  bool number_too_large = false;
};

bool space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool digit(char c) { return c >= '0' && c <= '9'; }

size_t skip_space(std::string_view s, size_t i) {
  while (i < s.size() && space(s[i])) ++i;
  return i;
}

/// s.find(c, from) for calls whose `from` never decreases: each remembers the
/// last answer, so a scan that asks at every position stays linear.
class ForwardFind {
 public:
  ForwardFind(std::string_view s, std::string_view what) : s_(s), what_(what) {}
  size_t from(size_t pos) {
    if (!searched_ || pos < from_ || (at_ != npos && at_ < pos)) {
      at_ = s_.find(what_, pos);
      from_ = pos;
      searched_ = true;
    }
    return at_;
  }

 private:
  std::string_view s_, what_;
  size_t at_ = npos, from_ = 0;
  bool searched_ = false;
};

/// The marker whose "/*" is at `at`, or nullopt when that comment is not one.
/// "/*STARK_SPAN <n>: instruction*/" and "/*STARK_END <n>*/", spaces allowed
/// around the parts; comment_end finds the "*/" that ends an instruction.
std::optional<Marker> marker_at(std::string_view s, size_t at, ForwardFind& comment_end) {
  Marker m;
  m.begin = at;
  size_t p = skip_space(s, at + 2);
  if (s.compare(p, 10, "STARK_SPAN") == 0) {
    m.open = true;
    p += 10;
  } else if (s.compare(p, 9, "STARK_END") == 0) {
    p += 9;
  } else {
    return std::nullopt;
  }
  size_t digits = skip_space(s, p);
  if (digits == p || digits >= s.size() || !digit(s[digits])) return std::nullopt;
  p = digits;
  while (p < s.size() && digit(s[p])) ++p;
  m.number_too_large = p - digits > 9;
  m.id = m.number_too_large ? 0 : std::stoi(std::string(s.substr(digits, p - digits)));
  p = skip_space(s, p);
  if (m.open) {
    if (p >= s.size() || s[p] != ':') return std::nullopt;
    size_t close = comment_end.from(p + 1);
    if (close == npos) return std::nullopt;
    m.instruction = trim(s.substr(p + 1, close - p - 1));
    m.end = close + 2;
  } else {
    if (s.compare(p, 2, "*/") != 0) return std::nullopt;
    m.end = p + 2;
  }
  return m;
}

/// Every marker, in order. A marker's text is not searched for more markers.
std::vector<Marker> markers(std::string_view s) {
  std::vector<Marker> out;
  ForwardFind comment_end(s, "*/");
  for (size_t at = s.find("/*"); at != npos;) {
    auto m = marker_at(s, at, comment_end);
    size_t next = m ? m->end : at + 2;
    if (m) out.push_back(*m);
    at = s.find("/*", next);
  }
  return out;
}

}  // namespace

Expected<std::vector<Span>> parse_spans(std::string_view grounded) {
  std::vector<Marker> all = markers(grounded);
  for (const Marker& m : all)
    if (m.number_too_large)
      return Error{fmt::format("a {} marker's number is too large", m.open ? "STARK_SPAN" : "STARK_END")};
  std::map<int, std::deque<size_t>> ends;  // id -> indices of its END markers, in order
  for (size_t i = 0; i < all.size(); ++i)
    if (!all[i].open) ends[all[i].id].push_back(i);

  std::vector<Span> spans;
  std::set<int> seen;
  for (size_t i = 0; i < all.size(); ++i) {
    const Marker& open = all[i];
    if (!open.open) continue;
    if (open.instruction.empty()) return Error{fmt::format("span {} has no instruction", open.id)};
    if (!seen.insert(open.id).second) return Error{fmt::format("span {} is marked twice", open.id)};
    auto& candidates = ends[open.id];
    while (!candidates.empty() && candidates.front() < i) candidates.pop_front();
    if (candidates.empty()) return Error{fmt::format("span {} is never closed (STARK_END {})", open.id, open.id)};
    size_t close = candidates.front();
    for (size_t j = i + 1; j < close; ++j)
      if (all[j].open) return Error{fmt::format("span {} contains another span", open.id)};
    spans.push_back({open.id, std::string(open.instruction),
                     std::string(grounded.substr(open.end, all[close].begin - open.end)), open.begin, all[close].end});
    i = close;
  }
  // Every END must close a SPAN that was opened.
  for (const Marker& m : all)
    if (!m.open && !seen.count(m.id)) return Error{fmt::format("STARK_END {} has no matching STARK_SPAN", m.id)};
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

std::optional<ByteRange> find_body(std::string_view s, std::string_view name) {
  // On C++ tokens (core/cpp_tokens.h): a name in a comment or a string
  // literal, raw ones included, is not the kernel, and brackets inside them
  // do not count. Linear in the text, however often a reply repeats the name.
  const std::vector<CppToken> tokens = cpp_tokens(s);
  const std::vector<CppToken> wanted = cpp_tokens(name);
  if (wanted.empty()) return std::nullopt;
  auto text = [&](size_t i) { return token_text(s, tokens[i]); };
  // The bracket that closes each opening one (of its own kind), and the
  // first '{' or ';' at or after each token.
  std::vector<size_t> closer(tokens.size(), npos), next_stop(tokens.size() + 1, npos);
  std::vector<size_t> parens, braces;
  for (size_t i = 0; i < tokens.size(); ++i) {
    std::string_view t = text(i);
    auto& open = t == "(" || t == ")" ? parens : braces;
    if (t == "(" || t == "{") open.push_back(i);
    if ((t == ")" || t == "}") && !open.empty()) {
      closer[open.back()] = i;
      open.pop_back();
    }
  }
  for (size_t i = tokens.size(); i-- > 0;) next_stop[i] = text(i) == "{" || text(i) == ";" ? i : next_stop[i + 1];
  for (size_t i = 0; i + wanted.size() < tokens.size(); ++i) {
    bool named = true;
    for (size_t k = 0; k < wanted.size() && named; ++k) named = text(i + k) == token_text(name, wanted[k]);
    if (!named || text(i + wanted.size()) != "(") continue;
    size_t close = closer[i + wanted.size()];
    if (close == npos) return std::nullopt;
    size_t stop = next_stop[close];
    if (stop == npos || text(stop) == ";") {  // a declaration or a call
      i = close;                              // nothing inside its parentheses can be the definition
      continue;
    }
    if (closer[stop] == npos) return std::nullopt;
    return ByteRange{static_cast<int64_t>(tokens[stop].begin), static_cast<int64_t>(tokens[closer[stop]].end)};
  }
  return std::nullopt;
}

Expected<void> check_spans_filled(std::string_view code) {
  for (size_t at = code.find("/*"); at != npos; at = code.find("/*", at + 2)) {
    size_t p = skip_space(code, at + 2);
    for (std::string_view word : {"STARK_SPAN", "STARK_END"}) {
      size_t after = p + word.size();
      if (code.compare(p, word.size(), word) != 0 || (after < code.size() && is_identifier_char(code[after]))) continue;
      return Error{
          fmt::format("the kernel still contains the marker '{}...': every marked span must be replaced by "
                      "its new code and every STARK_SPAN/STARK_END marker removed",
                      code.substr(at, after - at))};
    }
  }
  return {};
}

}  // namespace stark
