#include "core/diagnostic.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <stdexcept>

namespace stark {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

std::string Diagnostic::format() const {
  if (file.empty()) return fmt::format("{}: {}", to_string(level), message);
  if (line <= 0) return fmt::format("{}: {}: {}", file, to_string(level), message);
  if (column <= 0) return fmt::format("{}:{}: {}: {}", file, line, to_string(level), message);
  return fmt::format("{}:{}:{}: {}: {}", file, line, column, to_string(level), message);
}

void to_json(nlohmann::json& j, const Diagnostic& d) {
  j = nlohmann::json::object();
  if (!d.file.empty()) j["file"] = d.file;
  if (d.line > 0) j["line"] = d.line;
  if (d.column > 0) j["column"] = d.column;
  j["level"] = to_string(d.level);
  j["message"] = d.message;
}

void from_json(const nlohmann::json& j, Diagnostic& d) {
  d.file = j.value("file", "");
  d.line = j.value("line", 0);
  d.column = j.value("column", 0);
  std::string level = j.at("level").get<std::string>();
  if (level == "error") d.level = Severity::Error;
  else if (level == "warning") d.level = Severity::Warning;
  else if (level == "note") d.level = Severity::Note;
  else throw std::invalid_argument("unknown diagnostic level '" + level + "'");
  d.message = j.at("message").get<std::string>();
}

}  // namespace stark
