// nullable JSON fields <-> std::optional, for the contracts' "number or null".
#ifndef STARK_CORE_JSON_OPTIONAL_H
#define STARK_CORE_JSON_OPTIONAL_H

#include <optional>

#include <nlohmann/json.hpp>

namespace stark {

template <typename T>
nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

template <typename T>
std::optional<T> optional_field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<T>();
}

}  // namespace stark

#endif  // STARK_CORE_JSON_OPTIONAL_H
