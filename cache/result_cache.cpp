#include "cache/result_cache.h"

#include <fcntl.h>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <fstream>
#include <sstream>

#include "core/file_io.h"

namespace stark {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* event_name(CacheEvent e) {
  switch (e) {
    case CacheEvent::Hit: return "hit";
    case CacheEvent::Miss: return "miss";
    case CacheEvent::Store: return "store";
    case CacheEvent::Rejected: return "rejected";
  }
  return "?";
}

/// A file of the cache's own: "<14 hex>.json" (an entry) or a writer's
/// temporary "<14 hex>.json.tmp.<pid>.<address>", in "entries/<2 hex>/".
enum class OwnFile { Entry, Temp };

std::optional<OwnFile> own_file_kind(const std::string& name) {
  auto hex = [](std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
  };
  if (name.size() < 19 || !hex(std::string_view(name).substr(0, 14))) return std::nullopt;
  std::string_view rest = std::string_view(name).substr(14);
  if (rest == ".json") return OwnFile::Entry;
  if (rest.substr(0, 10) == ".json.tmp." && rest.size() > 10 &&
      rest.substr(10).find_first_not_of("0123456789abcdefx.") == std::string_view::npos)
    return OwnFile::Temp;
  return std::nullopt;
}

struct OwnEntry {
  fs::path path;
  OwnFile kind;
};

bool lower_hex(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

/// The compile cache's outputs: DIR/<2 hex>/<16 hex>.<cubin|ptx|o|log|fail>
/// (harness/compile/compile_service.cpp), regular files only, no link followed.
std::vector<fs::path> own_compile_files(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec))) return out;
  for (const auto& shard : fs::directory_iterator(dir, ec)) {
    std::string name = shard.path().filename().string();
    if (name.size() != 2 || !lower_hex(name) || !fs::is_directory(shard.symlink_status(ec))) continue;
    std::error_code inner;
    for (const auto& file : fs::directory_iterator(shard.path(), inner)) {
      std::string f = file.path().filename().string();
      auto dot = f.find('.');
      if (dot != 16 || !lower_hex(std::string_view(f).substr(0, 16))) continue;
      std::string ext = f.substr(dot);
      if (ext != ".cubin" && ext != ".ptx" && ext != ".o" && ext != ".log" && ext != ".fail") continue;
      if (fs::is_regular_file(file.symlink_status(inner))) out.push_back(file.path());
    }
  }
  return out;
}

/// The cache's own files under DIR/entries, without following a single
/// link: a shared cache folder is writable by others, and a link in it must
/// never lead `clean` to another folder's files. Anything else is left alone.
Expected<std::vector<OwnEntry>> own_files(const fs::path& entries) {
  std::error_code ec;
  auto top = fs::symlink_status(entries, ec);
  if (fs::is_symlink(top))
    return Error{
        fmt::format("{} is a symbolic link; STARK never follows links in its cache (remove the link, or "
                    "name the real folder with --cache-dir)",
                    entries.string())};
  std::vector<OwnEntry> out;
  if (!fs::is_directory(top)) return out;
  for (const auto& shard : fs::directory_iterator(entries, ec)) {
    std::string name = shard.path().filename().string();
    if (!fs::is_directory(shard.symlink_status(ec)) || name.size() != 2 ||
        name.find_first_not_of("0123456789abcdef") != std::string::npos)
      continue;
    std::error_code inner;
    for (const auto& file : fs::directory_iterator(shard.path(), inner)) {
      auto kind = own_file_kind(file.path().filename().string());
      if (kind && fs::is_regular_file(file.symlink_status(inner))) out.push_back({file.path(), *kind});
    }
    if (inner) return Error{fmt::format("cannot list '{}': {}", shard.path().string(), inner.message())};
  }
  if (ec) return Error{fmt::format("cannot list '{}': {}", entries.string(), ec.message())};
  return out;
}

// A crashed writer leaves its temp file; one this old is nobody's any more.
constexpr auto kStaleTemp = std::chrono::hours(1);

}  // namespace

std::string utc_timestamp() { return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr))); }

fs::path resolve_cache_dir(const std::string& option, const std::string& build_dir) {
  if (!option.empty()) return option;
  if (const char* env = std::getenv("STARK_CACHE_DIR"); env && *env) return env;
  return fs::path(build_dir) / ".stark" / "cache";
}

void to_json(json& j, const CacheStats& s) {
  j = {{"schema", "stark.cache-stats/1"},
       {"dir", s.dir},
       {"entries", s.entries},
       {"bytes", s.bytes},
       {"by_status", s.by_status},
       {"unreadable", s.unreadable},
       {"oldest", s.oldest.empty() ? json(nullptr) : json(s.oldest)},
       {"newest", s.newest.empty() ? json(nullptr) : json(s.newest)},
       {"events", {{"hits", s.hits}, {"misses", s.misses}, {"stores", s.stores}, {"rejected", s.rejected}}},
       {"compile", {{"files", s.compile_files}, {"bytes", s.compile_bytes}}}};
}

Expected<fs::path> ResultCache::entry_path(const std::string& key) const {
  constexpr std::string_view prefix = "xxh64:";
  std::string_view hex = std::string_view(key).substr(std::min(key.size(), prefix.size()));
  bool ok = key.rfind(prefix, 0) == 0 && hex.size() == 16 &&
            hex.find_first_not_of("0123456789abcdef") == std::string_view::npos;
  if (!ok) return Error{fmt::format("'{}' is not a cache key", key)};
  return dir_ / "entries" / std::string(hex.substr(0, 2)) / (std::string(hex.substr(2)) + ".json");
}

Expected<std::optional<CacheEntry>> ResultCache::lookup(const std::string& key) const {
  auto path = entry_path(key);
  if (!path) return path.error();
  std::error_code ec;
  if (!fs::exists(*path, ec)) return std::optional<CacheEntry>{};
  auto text = read_file(*path);
  if (!text) return text.error();
  auto entry = parse_entry(*text, key);
  if (!entry) return Error{fmt::format("{}: {}", path->string(), entry.error().message)};
  return std::optional<CacheEntry>(std::move(*entry));
}

Expected<void> ResultCache::store(const CacheEntry& entry) const {
  auto path = entry_path(entry.key);
  if (!path) return path.error();
  return write_file_atomic(*path, json(entry).dump(1) + "\n");
}

void ResultCache::touch(const std::string& key) const {
  auto path = entry_path(key);
  std::error_code ec;
  if (path) fs::last_write_time(*path, fs::file_time_type::clock::now(), ec);
}

void ResultCache::note(CacheEvent event, const std::string& kernel) const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  // One write(2) of a short line with O_APPEND: concurrent writers' lines
  // never interleave, so counts stay exact without a lock.
  std::string line = fmt::format("{} {} {}\n", utc_timestamp(), event_name(event), kernel.substr(0, 400));
  int fd = ::open((dir_ / "events.log").c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return;
  ssize_t written = ::write(fd, line.data(), line.size());
  (void)written;
  ::close(fd);
}

Expected<CacheStats> ResultCache::stats() const {
  CacheStats s;
  s.dir = dir_.string();
  auto files = own_files(dir_ / "entries");
  if (!files) return files.error();
  for (const auto& f : *files) {
    if (f.kind != OwnFile::Entry) continue;
    auto text = read_file(f.path);
    auto j = text ? json::parse(*text, nullptr, /*allow_exceptions=*/false) : json();
    if (j.is_discarded() || !j.is_object() || !j.contains("result") || !j["result"].is_object()) {
      ++s.unreadable;
      continue;
    }
    ++s.entries;
    s.bytes += static_cast<int64_t>(text->size());
    const auto& status = j["result"].contains("status") ? j["result"]["status"] : json();
    ++s.by_status[status.is_string() ? status.get<std::string>() : "?"];
    std::string created = j.contains("created") && j["created"].is_string() ? j["created"].get<std::string>() : "";
    if (!created.empty() && (s.oldest.empty() || created < s.oldest)) s.oldest = created;
    if (created > s.newest) s.newest = created;
  }
  std::error_code ec;
  for (const auto& f : own_compile_files(dir_)) {
    ++s.compile_files;
    s.compile_bytes += static_cast<int64_t>(fs::file_size(f, ec));
  }
  std::ifstream log(dir_ / "events.log");
  for (std::string line; std::getline(log, line);) {
    std::istringstream fields(line);
    std::string when, what;
    fields >> when >> what;
    if (what == "hit") ++s.hits;
    else if (what == "miss") ++s.misses;
    else if (what == "store") ++s.stores;
    else if (what == "rejected") ++s.rejected;
  }
  return s;
}

Expected<CleanReport> ResultCache::clean(const CleanOptions& options) const {
  CleanReport r;
  auto files = own_files(dir_ / "entries");
  if (!files) return files.error();
  struct Candidate {
    fs::path path;
    bool entry;
    fs::file_time_type written;
    int64_t size;
  };
  std::vector<Candidate> kept;
  std::error_code ec;
  auto now = fs::file_time_type::clock::now();
  auto remove = [&](const Candidate& c) {
    if (!fs::remove(c.path, ec)) return;
    r.bytes_freed += c.size;
    ++(c.entry ? r.removed : r.compile_removed);
  };
  // Without a criterion, everything goes; --max-size alone keeps the newest.
  const bool everything = !options.older_than && !options.max_bytes;
  auto consider = [&](const fs::path& path, bool entry) {
    auto written = fs::last_write_time(path, ec);
    if (ec) return;  // removed by another cleaner meanwhile
    Candidate c{path, entry, written, static_cast<int64_t>(fs::file_size(path, ec))};
    if (everything || (options.older_than && now - written > *options.older_than)) remove(c);
    else kept.push_back(std::move(c));
  };
  for (const auto& f : *files) {
    if (f.kind == OwnFile::Temp) {
      // Another process may be writing a temp file right now: only stale ones go.
      auto age = now - fs::last_write_time(f.path, ec);
      if (!ec && age > kStaleTemp) fs::remove(f.path, ec);
      continue;
    }
    consider(f.path, true);
  }
  for (const auto& f : own_compile_files(dir_)) consider(f, false);
  if (options.max_bytes) {
    int64_t total = 0;
    for (const auto& c : kept) total += c.size;
    std::sort(kept.begin(), kept.end(), [](const Candidate& a, const Candidate& b) { return a.written < b.written; });
    size_t oldest = 0;
    for (; oldest < kept.size() && total > *options.max_bytes; ++oldest) {
      total -= kept[oldest].size;
      remove(kept[oldest]);
    }
    kept.erase(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(oldest));
  }
  for (const auto& c : kept) r.kept += c.entry;
  if (everything) fs::remove(dir_ / "events.log", ec);  // a link is removed, never what it names
  return r;
}

Expected<int64_t> parse_size(std::string_view text) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  std::string_view unit = text.substr(static_cast<size_t>(end - text.data()));
  int shift = unit.empty()                 ? 0
              : unit == "k" || unit == "K" ? 10
              : unit == "M"                ? 20
              : unit == "G"                ? 30
              : unit == "T"                ? 40
                                           : -1;
  if (ec != std::errc() || n < 0 || shift < 0 || (shift > 0 && n > (INT64_MAX >> shift)))
    return Error{fmt::format("'{}' is not a size (a whole number of bytes, or with k, M, G or T after it)", text)};
  return n << shift;
}

}  // namespace stark
