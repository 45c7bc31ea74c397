// stark cache stats|clean as a user runs them, on a cache filled through the
// cache library the way stark optimize fills it.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

#include "cache/result_cache.h"
#include "core/hash.h"
#include "core/process.h"
#include "tests/support/run_stark.h"
#include "harness/store/capture_store.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

ProcessResult stark(std::vector<std::string> args) { return testing::run_stark(STARK_EXE, std::move(args)); }

fs::path filled_cache() {
  fs::path dir = fs::path(STARK_BINARY_DIR) / "tests/cache-cli-scratch" /
                 ::testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::remove_all(dir);
  ResultCache cache(dir);
  for (const char* name : {"a", "b"}) {
    CacheEntry e;
    e.key = content_hash(name);
    e.kernel = std::string("src/ops.cu:") + name;
    e.created = utc_timestamp();
    e.result.id = e.kernel;
    e.result.status = KernelStatus::NoGain;
    EXPECT_TRUE(cache.store(e));
    cache.note(CacheEvent::Hit, e.kernel);
  }
  cache.note(CacheEvent::Miss, "src/ops.cu:c");
  return dir;
}

TEST(CacheCli, StatsAsJsonAndForPeople) {
  fs::path dir = filled_cache();
  auto r = stark({"cache", "stats", "--cache-dir", dir.string(), "--json"});
  ASSERT_EQ(r.status.code, 0) << r.output;
  auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["schema"], "stark.cache-stats/1");
  EXPECT_EQ(j["entries"], 2);
  EXPECT_EQ(j["by_status"]["no_gain"], 2);
  EXPECT_EQ(j["events"]["hits"], 2);
  EXPECT_EQ(j["events"]["misses"], 1);
  r = stark({"cache", "stats", "--cache-dir", dir.string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("entries: 2 (0 improved, 2 no gain)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 hits, 1 miss, 0 rejected, 0 stored (hit rate 67%)"), std::string::npos) << r.output;
}

TEST(CacheCli, CleanEmptiesTheCacheTheEnvironmentNames) {
  fs::path dir = filled_cache();
  ::setenv("STARK_CACHE_DIR", dir.c_str(), 1);
  auto r = stark({"cache", "clean"});
  ::unsetenv("STARK_CACHE_DIR");
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("removed 2 entries"), std::string::npos) << r.output;
  EXPECT_EQ(ResultCache(dir).stats()->entries, 0);
}

TEST(CacheCli, TheBuildDirectoryHoldsTheDefaultCache) {
  fs::path dir = filled_cache();
  fs::path build = dir.parent_path() / "build";
  fs::remove_all(build);
  fs::create_directories(build / ".stark");
  fs::rename(dir, build / ".stark/cache");
  auto r = stark({"cache", "stats", "-p", build.string(), "--json"});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_EQ(nlohmann::json::parse(r.output)["entries"], 2);
}

/// A build folder whose capture store holds an old capture and a new one,
/// each with a blob of its own, plus a blob no capture refers to.
fs::path build_with_captures() {
  fs::path build = fs::path(STARK_BINARY_DIR) / "tests/cache-cli-scratch" /
                   ::testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::remove_all(build);
  auto store = harness::CaptureStore::open(build / ".stark/captures", true);
  EXPECT_TRUE(store) << store.error().message;
  std::vector<std::string> blobs;
  for (const char* content : {"old inputs", "new inputs", "orphan"}) blobs.push_back(*store->put_blob(content));
  EXPECT_TRUE(store->update([&](harness::CaptureIndex& index) -> Expected<void> {
    for (int i = 0; i < 2; ++i) {
      harness::Capture c;
      c.id = i == 0 ? "old" : "new";
      c.kernel = "src/ops.cu:k";
      c.created = i == 0 ? "2020-01-01T00:00:00Z" : harness::utc_now();
      harness::CapturedBuffer b;
      b.size = 10;
      b.before = blobs[static_cast<size_t>(i)];
      c.buffers.push_back(b);
      index.captures.push_back(c);
    }
    return {};
  }));
  // Written long ago, as far as the clean can tell.
  for (auto& f : fs::recursive_directory_iterator(build / ".stark/captures/blobs"))
    if (f.is_regular_file()) fs::last_write_time(f.path(), fs::file_time_type::clock::now() - std::chrono::hours(48));
  return build;
}

size_t blob_files(const fs::path& build) {
  size_t n = 0;
  for (auto& f : fs::recursive_directory_iterator(build / ".stark/captures/blobs")) n += f.is_regular_file();
  return n;
}

TEST(CacheCli, StatsAndCleanCoverTheCaptureStore) {
  fs::path build = build_with_captures();
  auto r = stark({"cache", "stats", "-p", build.string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("captures: 2 captures, 5 files"), std::string::npos)
      << r.output;  // 3 blobs, the index and the lock

  // --older-than: the old capture and the orphan go, the new one and its blob stay.
  r = stark({"cache", "clean", "-p", build.string(), "--older-than", "30"});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("removed 1 capture and 2 files"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("kept 1 capture"), std::string::npos) << r.output;
  auto index = harness::CaptureStore::open(build / ".stark/captures", false)->read_index();
  ASSERT_TRUE(index);
  ASSERT_EQ(index->captures.size(), 1u);
  EXPECT_EQ(index->captures[0].id, "new");
  EXPECT_EQ(blob_files(build), 1u);

  // --max-size alone caps the cache folder and says so.
  r = stark({"cache", "clean", "-p", build.string(), "--max-size", "1G"});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("captures in " + (build / ".stark/captures").string() + " kept"), std::string::npos)
      << r.output;

  // No filter: everything.
  r = stark({"cache", "clean", "-p", build.string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("removed 1 capture and 1 file"), std::string::npos) << r.output;
  EXPECT_EQ(blob_files(build), 0u);
}

TEST(CacheCli, ACleanLeavesBlobsBeingWrittenAndFilesNotItsOwn) {
  fs::path build = build_with_captures();
  fs::path blobs = build / ".stark/captures/blobs";
  // A capture in progress: its blob is fresh and not in the index yet.
  auto store = harness::CaptureStore::open(build / ".stark/captures", false);
  std::string fresh = *store->put_blob("being captured");
  std::ofstream(blobs / "notes.txt") << "mine\n";
  fs::last_write_time(blobs / "notes.txt", fs::file_time_type::clock::now() - std::chrono::hours(48));
  fs::create_directories(build / "elsewhere");
  std::ofstream(build / "elsewhere/0123456789abcdef.zst") << "not the store's\n";
  fs::create_directory_symlink(build / "elsewhere", blobs / "ff");
  auto r = stark({"cache", "clean", "-p", build.string()});
  ASSERT_EQ(r.status.code, 0) << r.output;
  EXPECT_TRUE(fs::exists(blobs / "notes.txt"));
  EXPECT_TRUE(fs::exists(build / "elsewhere/0123456789abcdef.zst")) << "a link was followed";
  EXPECT_TRUE(store->has_blob(fresh)) << "a blob younger than the grace period was removed";
}

TEST(CacheCli, AFolderThatIsNotThereIsSaid) {
  fs::path missing = fs::path(STARK_BINARY_DIR) / "tests/cache-cli-scratch/never-written";
  fs::remove_all(missing);
  auto r = stark({"cache", "stats", "--cache-dir", missing.string()});
  EXPECT_EQ(r.status.code, 0) << r.output;
  EXPECT_NE(r.output.find("stark: there is no cache at '" + missing.string() + "' (nothing was stored there yet)"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(missing)) << "looking must not create it";
  fs::create_directories(missing.parent_path());
  std::ofstream(missing) << "a file\n";
  r = stark({"cache", "clean", "--cache-dir", missing.string()});
  EXPECT_EQ(r.status.code, 1) << r.output;
  EXPECT_NE(r.output.find("is not a folder, so not a cache"), std::string::npos) << r.output;
  fs::remove(missing);
}

TEST(CacheCli, UsageErrorsAndHelp) {
  ::unsetenv("STARK_CACHE_DIR");
  auto r = stark({"cache", "stats"});
  EXPECT_EQ(r.status.code, 2);
  EXPECT_NE(r.output.find("stark: error: say which cache"), std::string::npos) << r.output;
  EXPECT_EQ(stark({"cache"}).status.code, 2);  // stats or clean
  r = stark({"cache", "--help"});
  EXPECT_EQ(r.status.code, 0);
  for (const char* taught : {"STARK_CACHE_DIR", "re-verified", "--force", "stark cache clean -p build --older-than 30"})
    EXPECT_NE(r.output.find(taught), std::string::npos) << taught;
}

}  // namespace
}  // namespace stark
