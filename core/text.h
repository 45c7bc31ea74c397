// Small string helpers shared by the stages.
#ifndef STARK_CORE_TEXT_H
#define STARK_CORE_TEXT_H

#include <string>
#include <string_view>
#include <vector>

namespace stark {

std::string_view trim(std::string_view s);

/// A letter, digit or '_': a character of a C++ identifier.
inline bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// Splits on sep at nesting depth 0 of (), [] and {}, so "min(a, b), c" is two parts.
std::vector<std::string_view> split(std::string_view s, char sep);

bool starts_with(std::string_view s, std::string_view prefix);

/// Joins with a separator.
std::string join(const std::vector<std::string>& parts, std::string_view sep);

/// Splits a command line the way a POSIX shell would (quotes, backslashes),
/// as CMake writes the "command" of compile_commands.json.
std::vector<std::string> shell_split(std::string_view command);

/// Quotes one argument for a POSIX shell, only when it needs it.
std::string shell_quote(std::string_view arg);

}  // namespace stark

#endif  // STARK_CORE_TEXT_H
