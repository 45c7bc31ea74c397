#include "core/file_io.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace stark {

namespace fs = std::filesystem;

Expected<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{fmt::format("cannot read '{}': {}", path.string(), std::strerror(errno))};
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) return Error{fmt::format("cannot read '{}'", path.string())};
  return out.str();
}

Expected<void> write_file_atomic(const fs::path& path, std::string_view content) {
  std::error_code ec;
  if (path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) return Error{fmt::format("cannot create '{}': {}", path.parent_path().string(), ec.message())};
  }
  // pid + address make the temp name unique across processes and threads.
  fs::path tmp = path;
  tmp += fmt::format(".tmp.{}.{}", ::getpid(), static_cast<const void*>(&content));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Error{fmt::format("cannot write '{}': {}", tmp.string(), std::strerror(errno))};
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      fs::remove(tmp, ec);
      return Error{fmt::format("cannot write '{}': {}", path.string(), std::strerror(errno))};
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Error{fmt::format("cannot replace '{}': {}", path.string(), ec.message())};
  }
  return {};
}

Expected<nlohmann::json> read_json_file(const fs::path& path) {
  auto text = read_file(path);
  if (!text) return text.error();
  try {
    return nlohmann::json::parse(*text);
  } catch (const nlohmann::json::parse_error& e) {
    return Error{fmt::format("'{}' is not valid JSON: {}", path.string(), e.what())};
  }
}

Expected<void> write_json_file(const fs::path& path, const nlohmann::json& value) {
  return write_file_atomic(path, value.dump(2) + "\n");
}

}  // namespace stark
