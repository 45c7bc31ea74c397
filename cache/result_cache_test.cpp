#include "cache/result_cache.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

#include "core/file_io.h"
#include "core/hash.h"
#include "core/paths.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

fs::path scratch() {
  fs::path dir =
      fs::path(STARK_BINARY_DIR) / "cache/scratch" / ::testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::remove_all(dir);
  return dir;
}

CacheEntry entry(const std::string& name, KernelStatus status = KernelStatus::NoGain) {
  CacheEntry e;
  e.key = content_hash(name);
  e.kernel = "src/ops.cu:" + name;
  e.created = utc_timestamp();
  e.result.id = e.kernel;
  e.result.status = status;
  if (status == KernelStatus::Improved) {
    e.result.best = Variant{e.kernel, "__global__ void " + name + "() {}", {}};
    e.result.speedup = 2.0;
  }
  return e;
}

TEST(ResultCache, StoresAndFindsEntriesByKey) {
  ResultCache cache(scratch());
  CacheEntry e = entry("saxpy", KernelStatus::Improved);
  auto none = cache.lookup(e.key);
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  ASSERT_TRUE(cache.store(e));
  auto found = cache.lookup(e.key);
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_TRUE(*found);
  EXPECT_EQ((*found)->result, e.result);
  auto path = cache.entry_path(e.key);
  ASSERT_TRUE(path);
  EXPECT_TRUE(is_within(*path, cache.dir() / "entries"));
}

TEST(ResultCache, ABrokenEntryIsAnErrorNotAHit) {
  ResultCache cache(scratch());
  CacheEntry e = entry("saxpy");
  ASSERT_TRUE(write_file_atomic(*cache.entry_path(e.key), "{\"schema\": \"stark.cache-entry/1\""));
  auto r = cache.lookup(e.key);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("not a valid entry"), std::string::npos) << r.error().message;
}

TEST(ResultCache, OnlyKeysNameFiles) {
  ResultCache cache(scratch());
  for (const char* bad : {"xxh64:../../../etc/pa", "md5:0123456789abcdef", "xxh64:0123456789ABCDEF", "xxh64:12"})
    EXPECT_FALSE(cache.entry_path(bad)) << bad;
  CacheEntry e = entry("x");
  e.key = "xxh64:../../../../tmp/x";
  EXPECT_FALSE(cache.store(e));
}

TEST(ResultCache, StatsCountEntriesAndEvents) {
  ResultCache cache(scratch());
  ASSERT_TRUE(cache.store(entry("a", KernelStatus::Improved)));
  ASSERT_TRUE(cache.store(entry("b")));
  ASSERT_TRUE(cache.store(entry("c")));
  ASSERT_TRUE(write_file_atomic(cache.dir() / "entries/00/00000000000000.json", "nope"));
  ASSERT_TRUE(
      write_file_atomic(cache.dir() / "entries/00/00000000000001.json", R"({"result": {"status": 7}, "created": 1})"));
  cache.note(CacheEvent::Hit, "a");
  cache.note(CacheEvent::Hit, "b");
  cache.note(CacheEvent::Miss, "c");
  cache.note(CacheEvent::Store, "c");
  cache.note(CacheEvent::Rejected, "d");
  auto s = cache.stats();
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->entries, 4);  // a status that is no string counts as "?", never as a crash
  EXPECT_EQ(s->unreadable, 1);
  EXPECT_EQ(s->by_status["?"], 1);
  EXPECT_EQ(s->by_status["improved"], 1);
  EXPECT_EQ(s->by_status["no_gain"], 2);
  EXPECT_GT(s->bytes, 0);
  EXPECT_EQ(s->hits, 2);
  EXPECT_EQ(s->misses, 1);
  EXPECT_EQ(s->stores, 1);
  EXPECT_EQ(s->rejected, 1);
  EXPECT_FALSE(s->oldest.empty());
  nlohmann::json j = *s;
  EXPECT_EQ(j["events"]["hits"], 2);
}

TEST(ResultCache, StatsOfACacheNotYetMadeAreZero) {
  ResultCache cache(scratch());
  auto s = cache.stats();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->entries, 0);
  EXPECT_EQ(s->hits, 0);
}

TEST(ResultCache, CleanRemovesEverythingOrWhatWasNotUsedLately) {
  ResultCache cache(scratch());
  CacheEntry used = entry("used"), old = entry("old");
  ASSERT_TRUE(cache.store(used));
  ASSERT_TRUE(cache.store(old));
  auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(24 * 40);
  fs::last_write_time(*cache.entry_path(old.key), long_ago);
  fs::last_write_time(*cache.entry_path(used.key), long_ago);
  cache.touch(used.key);  // a hit marks it used
  cache.note(CacheEvent::Hit, "used");

  auto r = cache.clean({std::chrono::hours(24 * 30), std::nullopt});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->removed, 1);
  EXPECT_EQ(r->kept, 1);
  EXPECT_GT(r->bytes_freed, 0);
  EXPECT_TRUE(*cache.lookup(used.key));
  EXPECT_FALSE(*cache.lookup(old.key));
  EXPECT_EQ(cache.stats()->hits, 1);  // the log stays with a partial clean

  r = cache.clean({});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->removed, 1);
  EXPECT_EQ(cache.stats()->entries, 0);
  EXPECT_EQ(cache.stats()->hits, 0);
}

TEST(ResultCache, CompileOutputsAreCountedAndCleanedTooAndTheSizeCapKeepsTheNewest) {
  fs::path dir = scratch();
  ResultCache cache(dir);
  // What the compile service leaves: DIR/<2 hex>/<16 hex>.<ext>.
  auto output = [&](const std::string& key, const char* ext, size_t bytes, int hours_ago) {
    fs::path p = dir / key.substr(0, 2) / (key + ext);
    EXPECT_TRUE(write_file_atomic(p, std::string(bytes, 'x')));
    fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::hours(hours_ago));
    return p;
  };
  fs::path old_cubin = output("0123456789abcdef", ".cubin", 4000, 48);
  fs::path old_log = output("0123456789abcdef", ".log", 100, 49);
  fs::path new_cubin = output("fedcba9876543210", ".cubin", 4000, 1);
  fs::path foreign = dir / "01" / "notes.txt";  // not named like ours: never touched
  ASSERT_TRUE(write_file_atomic(foreign, "mine\n"));
  auto s = cache.stats();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->compile_files, 3);
  EXPECT_EQ(s->compile_bytes, 8100);

  auto r = cache.clean({std::nullopt, 5000});  // the oldest go until 5000 bytes are left
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->compile_removed, 2);
  EXPECT_EQ(r->bytes_freed, 4100);
  EXPECT_FALSE(fs::exists(old_cubin));
  EXPECT_FALSE(fs::exists(old_log));
  EXPECT_TRUE(fs::exists(new_cubin));

  r = cache.clean({});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->compile_removed, 1);
  EXPECT_FALSE(fs::exists(new_cubin));
  EXPECT_TRUE(fs::exists(foreign));
}

TEST(ResultCache, SizesReadLikeCcaches) {
  EXPECT_EQ(*parse_size("5G"), int64_t{5} << 30);
  EXPECT_EQ(*parse_size("500M"), int64_t{500} << 20);
  EXPECT_EQ(*parse_size("64k"), 65536);
  EXPECT_EQ(*parse_size("1024"), 1024);
  for (const char* bad : {"", "G", "5 G", "-1G", "5X", "99999999999T"}) EXPECT_FALSE(parse_size(bad)) << bad;
}

TEST(ResultCache, CleanLeavesOtherWritersFreshTempFiles) {
  ResultCache cache(scratch());
  fs::path fresh = cache.dir() / "entries/ab/cdef0123456789.json.tmp.1.0x2",
           stale = cache.dir() / "entries/ab/cdef0123456789.json.tmp.3.0x4";
  ASSERT_TRUE(write_file_atomic(fresh, "half"));
  ASSERT_TRUE(write_file_atomic(stale, "half"));
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(2));
  ASSERT_TRUE(cache.clean({}));
  EXPECT_TRUE(fs::exists(fresh));
  EXPECT_FALSE(fs::exists(stale));
}

// A cache folder is shared and writable by others: `clean` followed a
// symlinked entries/ (or a shard, or a file) and deleted a foreign folder's files.
TEST(ResultCache, CleanNeverFollowsLinksAndRemovesOnlyItsOwnFiles) {
  ResultCache cache(scratch());
  fs::path foreign = cache.dir().parent_path() / (cache.dir().filename().string() + "-foreign");
  fs::remove_all(foreign);
  const std::vector<std::string> names = {"notes.txt", "0123456789abcd.json", "ab/cdef0123456789.json"};
  for (const auto& n : names) ASSERT_TRUE(write_file_atomic(foreign / n, "keep"));
  auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(2);
  for (const auto& n : names) fs::last_write_time(foreign / n, long_ago);

  // entries itself a link: refused, with the reason.
  fs::create_directories(cache.dir());
  fs::create_directory_symlink(foreign, cache.dir() / "entries");
  auto refused = cache.clean({});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("entries is a symbolic link"), std::string::npos) << refused.error().message;
  EXPECT_FALSE(cache.stats());

  // Links inside a real entries/: a shard, an entry file; a file not named like an entry.
  fs::remove(cache.dir() / "entries");
  CacheEntry e = entry("mine");
  ASSERT_TRUE(cache.store(e));
  fs::create_directory_symlink(foreign / "ab", cache.dir() / "entries/cd");
  fs::path shard = cache.entry_path(e.key)->parent_path();
  fs::create_symlink(foreign / "0123456789abcd.json", shard / "0123456789abce.json");
  ASSERT_TRUE(write_file_atomic(shard / "README", "the user's"));
  auto r = cache.clean({});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->removed, 1);
  EXPECT_FALSE(fs::exists(*cache.entry_path(e.key)));
  EXPECT_TRUE(fs::exists(shard / "README"));
  for (const auto& n : names) EXPECT_EQ(*read_file(foreign / n), "keep") << n;
}

TEST(ResultCache, TheDirectoryComesFromTheOptionTheEnvironmentOrTheBuild) {
  ::unsetenv("STARK_CACHE_DIR");
  EXPECT_EQ(resolve_cache_dir("", "/b"), fs::path("/b/.stark/cache"));
  ::setenv("STARK_CACHE_DIR", "/shared/stark", 1);
  EXPECT_EQ(resolve_cache_dir("", "/b"), fs::path("/shared/stark"));
  EXPECT_EQ(resolve_cache_dir("/mine", "/b"), fs::path("/mine"));
  ::unsetenv("STARK_CACHE_DIR");
}

/// What one writer does: its own entries, the shared ones, one event each.
void write_some(const fs::path& dir, int writer, int count) {
  ResultCache cache(dir);
  for (int i = 0; i < count; ++i) {
    CacheEntry own = entry(fmt::format("w{}-{}", writer, i), KernelStatus::Improved);
    CacheEntry shared = entry(fmt::format("shared-{}", i));
    shared.result.attempts = writer;  // same key, different writers' content
    if (!cache.store(own) || !cache.store(shared)) std::abort();
    cache.note(CacheEvent::Store, own.kernel);
  }
}

void expect_nothing_lost(const ResultCache& cache, int writers, int count) {
  for (int w = 0; w < writers; ++w)
    for (int i = 0; i < count; ++i) {
      auto e = cache.lookup(content_hash(fmt::format("w{}-{}", w, i)));
      ASSERT_TRUE(e && *e) << "lost w" << w << "-" << i;
    }
  for (int i = 0; i < count; ++i) {
    auto e = cache.lookup(content_hash(fmt::format("shared-{}", i)));
    ASSERT_TRUE(e && *e) << "shared entry " << i << " is missing or torn";
  }
  auto s = cache.stats();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->entries, writers * count + count);
  EXPECT_EQ(s->unreadable, 0);
  EXPECT_EQ(s->stores, writers * count);
  std::error_code ec;
  for (auto& f : fs::recursive_directory_iterator(cache.dir() / "entries"))
    EXPECT_EQ(f.path().string().find(".tmp."), std::string::npos) << "left behind: " << f.path();
}

TEST(ResultCache, ConcurrentProcessesLoseNothing) {
  ResultCache cache(scratch());
  constexpr int kWriters = 6, kCount = 40;
  std::vector<pid_t> children;
  for (int w = 0; w < kWriters; ++w) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      write_some(cache.dir(), w, kCount);
      ::_exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  expect_nothing_lost(cache, kWriters, kCount);
}

TEST(ResultCache, ConcurrentThreadsLoseNothing) {
  ResultCache cache(scratch());
  constexpr int kWriters = 6, kCount = 40;
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) threads.emplace_back(write_some, cache.dir(), w, kCount);
  for (auto& t : threads) t.join();
  expect_nothing_lost(cache, kWriters, kCount);
}

}  // namespace
}  // namespace stark
