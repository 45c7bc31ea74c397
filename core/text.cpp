#include "core/text.h"

#include <cctype>

namespace stark {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    else if (c == sep && depth == 0) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(s.substr(start));
  return out;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::vector<std::string> shell_split(std::string_view command) {
  std::vector<std::string> out;
  std::string word;
  bool in_word = false;
  enum { kNone, kSingle, kDouble } quote = kNone;
  for (size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (quote == kSingle) {
      if (c == '\'') quote = kNone;
      else word += c;
      continue;
    }
    if (quote == kDouble) {
      if (c == '"') quote = kNone;
      else if (c == '\\' && i + 1 < command.size() &&
               std::string_view("\"\\$`").find(command[i + 1]) != std::string_view::npos)
        word += command[++i];
      else word += c;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) out.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\'') quote = kSingle;
    else if (c == '"') quote = kDouble;
    else if (c == '\\' && i + 1 < command.size()) word += command[++i];
    else word += c;
  }
  if (in_word) out.push_back(std::move(word));
  return out;
}

std::string shell_quote(std::string_view arg) {
  bool plain = !arg.empty();
  for (char c : arg)
    if (!std::isalnum(static_cast<unsigned char>(c)) &&
        std::string_view("-_./=:,+@%").find(c) == std::string_view::npos)
      plain = false;
  if (plain) return std::string(arg);
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

}  // namespace stark
