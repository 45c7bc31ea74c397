#include "core/cpp_tokens.h"

#include <array>
#include <cctype>

#include "core/text.h"

namespace stark {

namespace {

constexpr size_t npos = std::string_view::npos;

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// End of the comment starting at i, or i when none starts there.
size_t skip_comment(std::string_view s, size_t i) {
  if (s.compare(i, 2, "//") == 0) {
    size_t nl = s.find('\n', i);
    return nl == npos ? s.size() : nl + 1;
  }
  if (s.compare(i, 2, "/*") == 0) {
    size_t end = s.find("*/", i + 2);
    return end == npos ? s.size() : end + 2;
  }
  return i;
}

/// End of the quoted literal whose opening quote is at i.
size_t quoted_end(std::string_view s, size_t i) {
  char q = s[i];
  for (size_t j = i + 1; j < s.size(); ++j) {
    if (s[j] == '\\') ++j;
    else if (s[j] == q || s[j] == '\n') return j + 1;
  }
  return s.size();
}

/// End of the raw string whose `"` is at i: R"delim( ... )delim".
size_t raw_string_end(std::string_view s, size_t i) {
  size_t open = s.find('(', i + 1);
  if (open == npos || open - i - 1 > 16) return quoted_end(s, i);  // not a valid delimiter: read it as a string
  std::string closing = ")" + std::string(s.substr(i + 1, open - i - 1)) + "\"";
  size_t end = s.find(closing, open + 1);
  return end == npos ? s.size() : end + closing.size();
}

/// End of the literal or identifier starting at i (an encoding prefix such
/// as u8 or LR belongs to the literal after it).
size_t word_end(std::string_view s, size_t i) {
  size_t j = i;
  while (j < s.size() && is_identifier_char(s[j])) ++j;
  if (j < s.size() && (s[j] == '"' || s[j] == '\'')) {
    std::string_view prefix = s.substr(i, j - i);
    static constexpr std::array<std::string_view, 5> kPrefixes{"u8", "u", "U", "L", ""};
    for (std::string_view p : kPrefixes) {
      if (prefix == p) return quoted_end(s, j);
      if (s[j] == '"' && prefix.size() == p.size() + 1 && prefix.substr(0, p.size()) == p && prefix.back() == 'R')
        return raw_string_end(s, j);
    }
  }
  return j;
}

/// End of the number starting at i: pp-number, with ' digit separators and
/// signed exponents (1e-3, 0x1p+4).
size_t number_end(std::string_view s, size_t i) {
  size_t j = i + 1;
  while (j < s.size()) {
    char c = s[j];
    if ((c == '+' || c == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E' || s[j - 1] == 'p' || s[j - 1] == 'P')) {
      ++j;
    } else if (c == '\'' && j + 1 < s.size() && is_identifier_char(s[j + 1])) {
      j += 2;
    } else if (is_identifier_char(c) || c == '.') {
      ++j;
    } else {
      break;
    }
  }
  return j;
}

size_t punctuator_end(std::string_view s, size_t i) {
  static constexpr std::array<std::string_view, 32> kLong{
      "<<<", ">>>", "<<=", ">>=", "->*", "...", "<=>", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
      "!=",  "&&",  "||",  "+=",  "-=",  "*=",  "/=",  "%=", "&=", "|=", "^=", ".*", "##", "",   "",   ""};
  for (std::string_view p : kLong)
    if (!p.empty() && s.compare(i, p.size(), p) == 0) return i + p.size();
  return i + 1;
}

}  // namespace

std::vector<CppToken> cpp_tokens(std::string_view s) {
  std::vector<CppToken> out;
  for (size_t i = 0; i < s.size();) {
    if (is_space(s[i])) {
      ++i;
      continue;
    }
    if (size_t after = skip_comment(s, i); after != i) {
      i = after;
      continue;
    }
    size_t end;
    if (is_digit(s[i]) || (s[i] == '.' && i + 1 < s.size() && is_digit(s[i + 1]))) end = number_end(s, i);
    else if (is_identifier_char(s[i])) end = word_end(s, i);
    else if (s[i] == '"' || s[i] == '\'') end = quoted_end(s, i);
    else end = punctuator_end(s, i);
    out.push_back({i, end});
    i = end;
  }
  return out;
}

size_t count_identifier(std::string_view text, std::string_view name) {
  size_t n = 0;
  for (const CppToken& t : cpp_tokens(text)) n += token_text(text, t) == name;
  return n;
}

std::optional<size_t> find_tokens(std::string_view text, const std::vector<CppToken>& haystack,
                                  std::string_view needle_text, const std::vector<CppToken>& needle, size_t from) {
  if (needle.empty()) return std::nullopt;
  auto word = [&](size_t k) { return token_text(needle_text, needle[k]); };
  // Knuth-Morris-Pratt over tokens: linear however the texts repeat (both
  // may come from a model).
  std::vector<size_t> border(needle.size(), 0);
  for (size_t k = 1, b = 0; k < needle.size(); ++k) {
    while (b > 0 && word(k) != word(b)) b = border[b - 1];
    if (word(k) == word(b)) ++b;
    border[k] = b;
  }
  for (size_t at = from, k = 0; at < haystack.size(); ++at) {
    std::string_view t = token_text(text, haystack[at]);
    while (k > 0 && t != word(k)) k = border[k - 1];
    if (t == word(k)) ++k;
    if (k == needle.size()) return at + 1 - needle.size();
  }
  return std::nullopt;
}

}  // namespace stark
