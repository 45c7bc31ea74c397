// stark cache stats|clean: what the result cache of stark optimize and the
// capture store of a build hold, and emptying them. The cache itself is
// cache/ (result_cache.h), the store harness/store/ (capture_store.h).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ctime>
#include <iostream>

#include "cache/result_cache.h"
#include "cli/cli_options.h"
#include "cli/command.h"
#include "cli/commands.h"
#include "cli/console.h"
#include "harness/capture/capture_runner.h"
#include "harness/store/capture_store.h"

namespace stark::cli {

namespace {

std::string size_text(int64_t bytes) {
  if (bytes >= (int64_t{1} << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
  if (bytes >= 1024) return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
  return fmt::format("{} B", bytes);
}

/// Regular files under `dir` and their bytes, no link followed.
std::pair<int64_t, int64_t> folder_size(const std::filesystem::path& dir) {
  int64_t files = 0, bytes = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    ++files;
    bytes += static_cast<int64_t>(it->file_size(ec));
  }
  return {files, bytes};
}

/// Seconds since the epoch of "2026-12-01T10:00:00Z"; nullopt when it is not one.
std::optional<std::time_t> parse_utc(const std::string& text) {
  std::tm tm{};
  const char* end = strptime(text.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (!end || *end != '\0') return std::nullopt;
  return timegm(&tm);
}

class CacheCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& app) override {
    auto* sub =
        app.add_subcommand("cache", "Show or empty the result cache that spares stark optimize a second search");
    sub->require_subcommand(1);
    stats_ = sub->add_subcommand("stats", "Entries, size and hit counts of the cache");
    clean_ = sub->add_subcommand("clean",
                                 "Remove cache entries and, with -p, the build's captures (all, or those "
                                 "older than --older-than DAYS)");
    for (CLI::App* s : {stats_, clean_}) {
      s->add_option("-p,--build-dir", build_dir_, "Build tree whose cache to use (BUILD_DIR/.stark/cache)")
          ->transform(absolute_path());
      s->add_option("--cache-dir", cache_dir_, "The cache directory itself (also $STARK_CACHE_DIR)")
          ->transform(absolute_path());
    }
    stats_->add_flag("--json", json_, "Print stark.cache-stats/1 JSON");
    clean_->add_option("--older-than", older_than_days_, "Only entries not used for this many days")
        ->check(CLI::NonNegativeNumber);
    clean_->add_option("--max-size", max_size_,
                       "Remove the oldest entries and compile outputs until the cache holds at most this much "
                       "(e.g. 5G, 500M; stark optimize keeps it under 5G by itself)");
    sub->footer(
        "\nstark optimize keeps every finished search in a cache: a kernel whose key is unchanged is\n"
        "not searched again; its cached winner is validated like a model's reply and re-verified on\n"
        "the current captures with one evaluation, then reused ('cache: hit' in result.json).\n"
        "\nThe key is a hash of everything that can change the answer: the kernel's meaning (its text,\n"
        "the functions, types, globals and macros it depends on, as clang sees them at scan time), the\n"
        "compile command, the GPU model, driver and CUDA versions, the compiler, the backend and\n"
        "model, budget, seed and tolerances, the captured input shapes, and STARK's version.\n"
        "\nWhere it lives: --cache-dir DIR, else $STARK_CACHE_DIR, else BUILD_DIR/.stark/cache.\n"
        "Several processes (CI runners on a shared folder) may use one directory at once: each\n"
        "entry is its own file, written atomically. Entries from a shared cache are untrusted\n"
        "and checked before use. stark optimize --force searches anyway and refreshes the entries;\n"
        "--no-cache neither reads nor writes the cache. The same folder keeps nvcc's outputs\n"
        "(<2 hex>/<16 hex>.cubin, .ptx, .o, .log, .fail), so no candidate is compiled twice.\n"
        "clean never follows a symbolic link and removes only files named like its own (entries,\n"
        "compile outputs and their temporaries). After each run stark optimize removes the oldest\n"
        "files until the cache holds at most 5G, like ccache's max_size.\n"
        "\nWith -p, stats and clean cover the build's capture store too (BUILD_DIR/.stark/captures):\n"
        "clean removes every capture, or with --older-than those recorded before then, and the\n"
        "blobs no capture left refers to (the next stark capture or stark_optimize records them\n"
        "again). Blobs written in the last 10 minutes stay: a test may be capturing right now.\n"
        "\nExamples:\n"
        "  stark cache stats -p build                     entries, compile outputs, captures\n"
        "  stark cache stats --cache-dir /shared/stark-cache --json\n"
        "  stark cache clean -p build                     remove everything, captures included\n"
        "  stark cache clean -p build --older-than 30     remove what was unused for 30 days\n"
        "  stark cache clean -p build --max-size 1G       keep the newest 1G\n");
    return sub;
  }

  int run() override {
    if (cache_dir_.empty() && build_dir_.empty() && !std::getenv("STARK_CACHE_DIR")) {
      print_error("say which cache: -p BUILD_DIR, --cache-dir DIR or STARK_CACHE_DIR");
      return kExitUsage;
    }
    ResultCache cache(resolve_cache_dir(cache_dir_, build_dir_));
    // A typo in --cache-dir must not read as an empty cache.
    std::error_code ec;
    if (std::filesystem::exists(cache.dir(), ec) && !std::filesystem::is_directory(cache.dir(), ec)) {
      print_error(fmt::format("'{}' is not a folder, so not a cache", cache.dir().string()));
      return kExitFailed;
    }
    if (!std::filesystem::exists(cache.dir(), ec))
      print_note(fmt::format("there is no cache at '{}' (nothing was stored there yet)", cache.dir().string()));
    if (stats_->parsed()) return stats(cache);
    return clean(cache);
  }

 private:
  int stats(const ResultCache& cache) const {
    auto s = cache.stats();
    if (!s) {
      print_error(s.error().message);
      return kExitFailed;
    }
    if (json_) {
      std::cout << nlohmann::json(*s).dump(2) << "\n";
      return kExitOk;
    }
    std::cout << fmt::format("cache: {}\n", s->dir);
    std::cout << fmt::format("entries: {} ({} improved, {} no gain), {}\n", s->entries, s->by_status["improved"],
                             s->by_status["no_gain"], size_text(s->bytes));
    if (s->entries > 0) std::cout << fmt::format("created: {} .. {}\n", s->oldest, s->newest);
    std::cout << fmt::format("compile outputs: {} file{}, {}\n", s->compile_files, s->compile_files == 1 ? "" : "s",
                             size_text(s->compile_bytes));
    if (!build_dir_.empty()) {
      // The capture store is not the cache, but it is the other thing STARK keeps.
      auto store = harness::default_store(build_dir_);
      auto [files, bytes] = folder_size(store);
      auto opened = harness::CaptureStore::open(store, false);
      auto index = opened ? opened->read_index() : Expected<harness::CaptureIndex>(Error{""});
      std::string count =
          index ? fmt::format("{} capture{}, ", index->captures.size(), index->captures.size() == 1 ? "" : "s") : "";
      std::cout << fmt::format("captures: {}{} file{}, {} in {} (stark capture --max-store-bytes caps it)\n", count,
                               files, files == 1 ? "" : "s", size_text(bytes), store.string());
    }
    if (s->unreadable > 0)
      std::cout << fmt::format("unreadable: {} file{} (never used; `stark cache clean` removes them)\n", s->unreadable,
                               s->unreadable == 1 ? "" : "s");
    int64_t lookups = s->hits + s->misses + s->rejected;
    std::cout << fmt::format("since the last clean: {} hit{}, {} miss{}, {} rejected, {} stored", s->hits,
                             s->hits == 1 ? "" : "s", s->misses, s->misses == 1 ? "" : "es", s->rejected, s->stores);
    if (lookups > 0) std::cout << fmt::format(" (hit rate {:.0f}%)", 100.0 * static_cast<double>(s->hits) / lookups);
    std::cout << "\n";
    return kExitOk;
  }

  int clean(const ResultCache& cache) const {
    CleanOptions options;
    if (older_than_days_)
      options.older_than = std::chrono::seconds(static_cast<int64_t>(*older_than_days_ * 24 * 3600));
    if (!max_size_.empty()) {
      auto bytes = parse_size(max_size_);
      if (!bytes) {
        print_error("--max-size: " + bytes.error().message);
        return kExitUsage;
      }
      options.max_bytes = *bytes;
    }
    auto r = cache.clean(options);
    if (!r) {
      print_error(r.error().message);
      return kExitFailed;
    }
    std::cout << fmt::format("removed {} entr{} and {} compile output{} ({}) from {}; kept {} entr{}\n", r->removed,
                             r->removed == 1 ? "y" : "ies", r->compile_removed, r->compile_removed == 1 ? "" : "s",
                             size_text(r->bytes_freed), cache.dir().string(), r->kept, r->kept == 1 ? "y" : "ies");
    return build_dir_.empty() ? kExitOk : clean_captures();
  }

  /// The build's capture store: all of it, or the captures recorded before
  /// --older-than days. --max-size alone caps the cache folder only.
  int clean_captures() const {
    auto dir = harness::default_store(build_dir_);
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return kExitOk;
    if (!max_size_.empty() && !older_than_days_) {
      std::cout << fmt::format(
          "captures in {} kept: --max-size caps the cache folder (stark capture "
          "--max-store-bytes caps the capture store)\n",
          dir.string());
      return kExitOk;
    }
    auto store = harness::CaptureStore::open(dir, false);
    if (!store) {
      print_error(store.error().message);
      return kExitFailed;
    }
    std::optional<std::time_t> cutoff;
    if (older_than_days_) cutoff = std::time(nullptr) - static_cast<std::time_t>(*older_than_days_ * 24 * 3600);
    auto pruned = store->prune([&](const harness::Capture& c) {
      if (!cutoff) return true;
      auto created = parse_utc(c.created);
      return created && *created < *cutoff;
    });
    if (!pruned) {
      print_error(pruned.error().message);
      return kExitFailed;
    }
    std::cout << fmt::format("removed {} capture{} and {} file{} ({}) from {}; kept {} capture{}\n", pruned->captures,
                             pruned->captures == 1 ? "" : "s", pruned->files, pruned->files == 1 ? "" : "s",
                             size_text(static_cast<int64_t>(pruned->bytes)), dir.string(), pruned->kept,
                             pruned->kept == 1 ? "" : "s");
    return kExitOk;
  }

  CLI::App* stats_ = nullptr;
  CLI::App* clean_ = nullptr;
  std::string build_dir_, cache_dir_;
  std::optional<double> older_than_days_;
  std::string max_size_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> make_cache_command() { return std::make_unique<CacheCommand>(); }

}  // namespace stark::cli
