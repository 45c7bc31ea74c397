// The names of STARK's closed sets as its JSON spells them: one table of
// (name, value) pairs per enum, read both ways. A name no table holds is an
// error that says what was being read, never a silent default.
#ifndef STARK_CORE_ENUM_NAMES_H
#define STARK_CORE_ENUM_NAMES_H

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace stark {

/// One enum's names: {"name", Enum::Value} for every value.
template <typename E, size_t N>
using EnumNames = std::pair<const char*, E>[N];

/// The name of e (the table's first name if e is missing from it).
template <typename E, size_t N>
const char* enum_name(E e, const EnumNames<E, N>& table) {
  for (const auto& [name, value] : table)
    if (value == e) return name;
  return table[0].first;
}

/// The value named name; nullopt for a name the table does not hold.
template <typename E, size_t N>
std::optional<E> enum_from_name(std::string_view name, const EnumNames<E, N>& table) {
  for (const auto& [text, value] : table)
    if (name == text) return value;
  return std::nullopt;
}

/// The value a JSON string names; throws std::invalid_argument ("unknown
/// WHAT 'name'") for any other name, json's type_error for a non-string.
template <typename E, size_t N>
E parse_enum(const nlohmann::json& j, const char* what, const EnumNames<E, N>& table) {
  auto s = j.get<std::string>();
  if (auto value = enum_from_name(s, table)) return *value;
  throw std::invalid_argument(fmt::format("unknown {} '{}'", what, s));
}

}  // namespace stark

#endif  // STARK_CORE_ENUM_NAMES_H
