// Reading and writing whole files; writes are atomic (temp file + rename) so a
// crash or a concurrent reader never sees half a manifest or half a source.
#ifndef STARK_CORE_FILE_IO_H
#define STARK_CORE_FILE_IO_H

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/expected.h"

namespace stark {

Expected<std::string> read_file(const std::filesystem::path& path);

/// Writes via a sibling temporary file and rename(2); creates parent folders.
Expected<void> write_file_atomic(const std::filesystem::path& path, std::string_view content);

/// Parses a JSON file; errors name the file (and the line for syntax errors).
Expected<nlohmann::json> read_json_file(const std::filesystem::path& path);

/// Pretty-printed JSON (2-space indent, trailing newline), written atomically.
Expected<void> write_json_file(const std::filesystem::path& path, const nlohmann::json& value);

}  // namespace stark

#endif  // STARK_CORE_FILE_IO_H
