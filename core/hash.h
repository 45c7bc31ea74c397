// Content hashes as written into manifests, caches and CMake fragments.
#ifndef STARK_CORE_HASH_H
#define STARK_CORE_HASH_H

#include <filesystem>
#include <string>
#include <string_view>

#include "core/expected.h"

namespace stark {

/// "xxh64:<16 hex digits>" of the bytes.
std::string content_hash(std::string_view bytes);

/// content_hash() of a file's bytes.
Expected<std::string> file_hash(const std::filesystem::path& path);

}  // namespace stark

#endif  // STARK_CORE_HASH_H
