#include "core/hash.h"

#include <fmt/format.h>
#include <xxhash.h>

#include "core/file_io.h"

namespace stark {

std::string content_hash(std::string_view bytes) {
  return fmt::format("xxh64:{:016x}", XXH64(bytes.data(), bytes.size(), 0));
}

Expected<std::string> file_hash(const std::filesystem::path& path) {
  auto text = read_file(path);
  if (!text) return text.error();
  return content_hash(*text);
}

}  // namespace stark
