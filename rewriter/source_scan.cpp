#include "rewriter/source_scan.h"
#include "core/text.h"

#include <cctype>

namespace stark::rewriter {

namespace {

bool space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Offset of the bracket matching the opening one at `open`, on masked text.
std::optional<size_t> match_forward(std::string_view m, size_t open) {
  const char o = m[open];
  const char c = o == '(' ? ')' : o == '[' ? ']' : o == '{' ? '}' : '>';
  int depth = 0;
  for (size_t i = open; i < m.size(); ++i) {
    if (m[i] == o) ++depth;
    else if (m[i] == c && --depth == 0) return i;
  }
  return std::nullopt;
}

// Offset of the bracket opening the one closing at `close`, on masked text.
std::optional<size_t> match_backward(std::string_view m, size_t close) {
  const char c = m[close];
  const char o = c == ')' ? '(' : c == ']' ? '[' : c == '}' ? '{' : '<';
  int depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    if (m[i] == c) ++depth;
    else if (m[i] == o && --depth == 0) return i;
  }
  return std::nullopt;
}

// The word at [at, ...) when it is exactly `word` (identifier boundaries).
bool word_at(std::string_view m, size_t at, std::string_view word) {
  if (m.substr(at, word.size()) != word) return false;
  if (at > 0 && is_identifier_char(m[at - 1])) return false;
  size_t end = at + word.size();
  return end >= m.size() || !is_identifier_char(m[end]);
}

size_t skip_space(std::string_view m, size_t i) {
  while (i < m.size() && space(m[i])) ++i;
  return i;
}

}  // namespace

std::string code_mask(std::string_view text) {
  std::string m(text);
  enum { kCode, kLine, kBlock, kString, kChar, kRaw } state = kCode;
  std::string raw_end;  // )delim"
  for (size_t i = 0; i < m.size(); ++i) {
    char c = text[i];
    switch (state) {
      case kCode:
        if (c == '/' && i + 1 < m.size() && text[i + 1] == '/') {
          state = kLine;
          m[i] = m[i + 1] = ' ';
          ++i;
        } else if (c == '/' && i + 1 < m.size() && text[i + 1] == '*') {
          state = kBlock;
          m[i] = m[i + 1] = ' ';
          ++i;
        } else if (c == '"' && i > 0 && text[i - 1] == 'R' &&
                   (i < 2 || !is_identifier_char(text[i - 2]) || text[i - 2] == 'u' || text[i - 2] == 'U' ||
                    text[i - 2] == 'L' || text[i - 2] == '8')) {
          size_t open = text.find('(', i);
          if (open == std::string_view::npos) break;
          raw_end = ")" + std::string(text.substr(i + 1, open - i - 1)) + "\"";
          for (size_t k = i + 1; k <= open; ++k) m[k] = ' ';
          i = open;
          state = kRaw;
        } else if (c == '"') {
          state = kString;
        } else if (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1])) && i + 1 < m.size() &&
                                  std::isxdigit(static_cast<unsigned char>(text[i + 1])))) {
          state = kChar;  // (a ' between hex digits is a digit separator)
        }
        break;
      case kLine:
        if (c == '\n' && !(i > 0 && text[i - 1] == '\\')) state = kCode;
        else m[i] = ' ';
        break;
      case kBlock:
        if (c == '*' && i + 1 < m.size() && text[i + 1] == '/') {
          m[i] = m[i + 1] = ' ';
          ++i;
          state = kCode;
        } else if (c != '\n') {
          m[i] = ' ';
        }
        break;
      case kString:
      case kChar:
        if (c == '\\' && i + 1 < m.size()) {
          m[i] = ' ';
          if (text[i + 1] != '\n') m[i + 1] = ' ';
          ++i;
        } else if ((state == kString && c == '"') || (state == kChar && c == '\'')) {
          state = kCode;
        } else if (c != '\n') {
          m[i] = ' ';
        }
        break;
      case kRaw:
        if (text.substr(i, raw_end.size()) == raw_end) {
          for (size_t k = i; k + 1 < i + raw_end.size(); ++k) m[k] = ' ';
          i += raw_end.size() - 1;
          state = kCode;
        } else if (c != '\n') {
          m[i] = ' ';
        }
        break;
    }
  }
  return m;
}

std::optional<Span> find_annotation(std::string_view text) {
  const std::string m = code_mask(text);
  for (size_t i = 0; i < m.size(); ++i) {
    if (word_at(m, i, "STARK_OPTIMIZE")) {
      size_t open = skip_space(m, i + 14);
      if (open < m.size() && m[open] == '(')
        if (auto close = match_forward(m, open)) return Span{i, *close + 1};
      return Span{i, i + 14};
    }
    if (m.compare(i, 2, "[[") == 0) {
      auto close = m.find("]]", i + 2);
      if (close == std::string::npos) return std::nullopt;
      std::string_view inside = text.substr(i, close + 2 - i);
      if (inside.find("stark::optimize") != std::string_view::npos) return Span{i, close + 2};
      i = close + 1;
      continue;
    }
    if (word_at(m, i, "__attribute__")) {
      size_t open = skip_space(m, i + 13);
      if (open < m.size() && m[open] == '(')
        if (auto close = match_forward(m, open)) {
          if (text.substr(i, *close + 1 - i).find("stark::optimize") != std::string_view::npos)
            return Span{i, *close + 1};
          i = *close;
        }
    }
  }
  return std::nullopt;
}

std::optional<size_t> annotation_insert_point(std::string_view text) {
  const std::string m = code_mask(text);
  size_t at = std::string::npos;
  for (size_t i = 0; i < m.size(); ++i)
    if (word_at(m, i, "__global__")) {
      at = i;
      break;
    }
  if (at == std::string::npos) return std::nullopt;
  // Move back over plain specifier words (static, inline, extern...).
  size_t start = at;
  for (;;) {
    size_t j = start;
    while (j > 0 && space(m[j - 1])) --j;
    if (j == 0 || !is_identifier_char(m[j - 1])) break;
    size_t w = j;
    while (w > 0 && is_identifier_char(m[w - 1])) --w;
    std::string_view word(m.data() + w, j - w);
    if (word != "static" && word != "inline" && word != "extern" && word != "__forceinline__" &&
        word != "__noinline__" && word != "constexpr")
      break;
    start = w;
  }
  return start;
}

std::optional<Span> chevron_callee(std::string_view text, size_t chevron) {
  const std::string m = code_mask(text);
  size_t end = chevron;
  while (end > 0 && space(m[end - 1])) --end;
  auto keyword = [&](size_t word_end) {
    size_t b = word_end;
    while (b > 0 && is_identifier_char(m[b - 1])) --b;
    std::string_view w(m.data() + b, word_end - b);
    return w == "if" || w == "while" || w == "for" || w == "switch" || w == "return" || w == "else" || w == "do";
  };
  // A postfix expression read backwards: names joined by '::', '.', '->',
  // and bracketed groups after a name (template arguments, calls,
  // subscripts), or one parenthesised expression.
  size_t i = end;
  while (i > 0) {
    char c = m[i - 1];
    bool group = false;
    if (is_identifier_char(c)) {
      while (i > 0 && is_identifier_char(m[i - 1])) --i;
    } else if (c == ')' || c == ']' || c == '>') {
      auto open = match_backward(m, i - 1);
      if (!open) return std::nullopt;
      i = *open;
      group = true;
    } else {
      break;
    }
    size_t j = i;
    while (j > 0 && space(m[j - 1])) --j;
    if (j >= 2 && (m.compare(j - 2, 2, "::") == 0 || m.compare(j - 2, 2, "->") == 0)) {
      i = j - 2;
    } else if (j >= 1 && m[j - 1] == '.') {
      i = j - 1;
    } else if (group && j >= 1 && (m[j - 1] == '>' || (is_identifier_char(m[j - 1]) && !keyword(j)))) {
      i = j;
      continue;
    } else {
      break;
    }
    while (i > 0 && space(m[i - 1])) --i;
  }
  if (i >= end) return std::nullopt;
  return Span{i, end};
}

std::optional<CallHead> call_head_before(std::string_view text, size_t arg_begin) {
  const std::string m = code_mask(text);
  size_t i = arg_begin;
  while (i > 0 && space(m[i - 1])) --i;
  if (i == 0 || m[i - 1] != ',') return std::nullopt;
  size_t comma = i - 1;
  int depth = 0;
  for (size_t k = comma; k-- > 0;) {
    char c = m[k];
    if (c == ')' || c == ']' || c == '}') ++depth;
    else if (c == '(' || c == '[' || c == '{') {
      if (depth == 0) {
        if (c != '(') return std::nullopt;
        size_t name_end = k;
        while (name_end > 0 && space(m[name_end - 1])) --name_end;
        size_t name_begin = name_end;
        while (name_begin > 0 && is_identifier_char(m[name_begin - 1])) --name_begin;
        size_t b = skip_space(m, k + 1), e = comma;
        while (e > b && space(m[e - 1])) --e;
        return CallHead{Span{b, e}, std::string(text.substr(name_begin, name_end - name_begin))};
      }
      --depth;
    } else if (c == ';') {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<size_t> next_separator(std::string_view text, size_t pos) {
  const std::string m = code_mask(text);
  int depth = 0;
  for (size_t i = pos; i < m.size(); ++i) {
    char c = m[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return c == ')' ? std::optional<size_t>(i) : std::nullopt;
      --depth;
    } else if (c == ',' && depth == 0) {
      return i;
    } else if (c == ';') {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

size_t line_start(std::string_view text, size_t pos) {
  if (pos > text.size()) pos = text.size();
  while (pos > 0 && text[pos - 1] != '\n') --pos;
  return pos;
}

}  // namespace stark::rewriter
