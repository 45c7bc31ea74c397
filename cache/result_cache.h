// The result cache on disk: one file per entry under DIR/entries/, named by
// its key, written atomically (temp file + rename), so any number of
// processes may read and write one directory at once (several CI runners on
// a shared folder) and none ever sees half an entry or loses another's.
// There is no index to update: the file system is the index.
#ifndef STARK_CACHE_RESULT_CACHE_H
#define STARK_CACHE_RESULT_CACHE_H

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "cache/cache_entry.h"
#include "core/expected.h"

namespace stark {

/// --cache-dir when given, else $STARK_CACHE_DIR, else BUILD_DIR/.stark/cache.
std::filesystem::path resolve_cache_dir(const std::string& option, const std::string& build_dir);

/// What `stark cache stats` shows.
struct CacheStats {
  std::string dir;
  int64_t entries = 0;
  int64_t bytes = 0;
  std::map<std::string, int64_t> by_status;  // "improved", "no_gain"
  int64_t unreadable = 0;                    // files that are no valid entry
  std::string oldest, newest;                // entries' creation times
  // From DIR/events.log, since the last clean:
  int64_t hits = 0, misses = 0, stores = 0, rejected = 0;
  // The compile cache beside the entries (DIR/<2 hex>/<16 hex>.cubin, .ptx,
  // .o, .log, .fail): nvcc's outputs, kept so a candidate is compiled once.
  int64_t compile_files = 0, compile_bytes = 0;
};

void to_json(nlohmann::json& j, const CacheStats& s);

/// What `stark cache clean` removes: every entry and compile output, or
/// those not used (looked up with success or written) for longer than
/// older_than, or the oldest until the cache holds at most max_bytes.
struct CleanOptions {
  std::optional<std::chrono::seconds> older_than;
  std::optional<int64_t> max_bytes;
};

struct CleanReport {
  int64_t removed = 0;          // entries
  int64_t kept = 0;             // entries
  int64_t compile_removed = 0;  // compile outputs
  int64_t bytes_freed = 0;
};

/// The size cap stark optimize keeps the cache under after each run, like
/// ccache's max_size.
inline constexpr int64_t kDefaultCacheMaxBytes = int64_t{5} << 30;

/// "5G", "500M", "64k", "1024" (bytes); an Error for anything else.
Expected<int64_t> parse_size(std::string_view text);

/// What happened to a lookup, for the event log (and so for stats).
enum class CacheEvent { Hit, Miss, Store, Rejected };

class ResultCache {
 public:
  explicit ResultCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  const std::filesystem::path& dir() const { return dir_; }

  /// The entry filed under key, shape-checked (parse_entry); nullopt when
  /// there is none; an Error when the file is there but is no valid entry.
  Expected<std::optional<CacheEntry>> lookup(const std::string& key) const;

  /// Files the entry under its key, replacing any entry there.
  Expected<void> store(const CacheEntry& entry) const;

  /// Marks an entry as used now, so `clean --older-than` keeps it.
  void touch(const std::string& key) const;

  /// Appends one line to DIR/events.log (best effort: a read-only shared
  /// cache still serves hits).
  void note(CacheEvent event, const std::string& kernel) const;

  Expected<CacheStats> stats() const;
  Expected<CleanReport> clean(const CleanOptions& options) const;

  /// DIR/entries/ab/cdef0123456789.json for "xxh64:abcdef0123456789"; an
  /// Error for anything that is not a key.
  Expected<std::filesystem::path> entry_path(const std::string& key) const;

 private:
  std::filesystem::path dir_;
};

/// The time now as "2026-12-02T10:00:00Z".
std::string utc_timestamp();

}  // namespace stark

#endif  // STARK_CACHE_RESULT_CACHE_H
