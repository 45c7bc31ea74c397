// Source diagnostics in the form compilers and editors understand.
#ifndef STARK_CORE_DIAGNOSTIC_H
#define STARK_CORE_DIAGNOSTIC_H

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace stark {

enum class Severity { Error, Warning, Note };

/// One message about a place in a user's source (or about no place: empty file).
struct Diagnostic {
  std::string file;  // as shown to the user: relative to the source root when inside it
  int line = 0;      // 1-based; 0 = no location
  int column = 0;    // 1-based; 0 = no column
  Severity level = Severity::Error;
  std::string message;

  bool operator==(const Diagnostic&) const = default;

  /// "file:line:col: error: message", or "error: message" without a file.
  std::string format() const;
};

const char* to_string(Severity s);

void to_json(nlohmann::json& j, const Diagnostic& d);
void from_json(const nlohmann::json& j, Diagnostic& d);

}  // namespace stark

#endif  // STARK_CORE_DIAGNOSTIC_H
