// stark cache stats|clean as a user runs them, on a cache filled through the
// cache library the way stark optimize fills it.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

#include "cache/result_cache.h"
#include "core/hash.h"
#include "core/process.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

ProcessResult stark(std::vector<std::string> args) {
  args.insert(args.begin(), STARK_EXE);
  auto r = run_process(args);
  EXPECT_TRUE(r);
  return r ? *r : ProcessResult{};
}

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
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["schema"], "stark.cache-stats/1");
  EXPECT_EQ(j["entries"], 2);
  EXPECT_EQ(j["by_status"]["no_gain"], 2);
  EXPECT_EQ(j["events"]["hits"], 2);
  EXPECT_EQ(j["events"]["misses"], 1);
  r = stark({"cache", "stats", "--cache-dir", dir.string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("entries: 2 (0 improved, 2 no gain)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 hits, 1 miss, 0 rejected, 0 stored (hit rate 67%)"), std::string::npos) << r.output;
}

TEST(CacheCli, CleanEmptiesTheCacheTheEnvironmentNames) {
  fs::path dir = filled_cache();
  ::setenv("STARK_CACHE_DIR", dir.c_str(), 1);
  auto r = stark({"cache", "clean"});
  ::unsetenv("STARK_CACHE_DIR");
  ASSERT_EQ(r.exit_code, 0) << r.output;
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
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(nlohmann::json::parse(r.output)["entries"], 2);
}

TEST(CacheCli, AFolderThatIsNotThereIsSaid) {
  fs::path missing = fs::path(STARK_BINARY_DIR) / "tests/cache-cli-scratch/never-written";
  fs::remove_all(missing);
  auto r = stark({"cache", "stats", "--cache-dir", missing.string()});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("stark: there is no cache at '" + missing.string() + "' (nothing was stored there yet)"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(missing)) << "looking must not create it";
  fs::create_directories(missing.parent_path());
  std::ofstream(missing) << "a file\n";
  r = stark({"cache", "clean", "--cache-dir", missing.string()});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("is not a folder, so not a cache"), std::string::npos) << r.output;
  fs::remove(missing);
}

TEST(CacheCli, UsageErrorsAndHelp) {
  ::unsetenv("STARK_CACHE_DIR");
  auto r = stark({"cache", "stats"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("stark: error: say which cache"), std::string::npos) << r.output;
  EXPECT_EQ(stark({"cache"}).exit_code, 2);  // stats or clean
  r = stark({"cache", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* taught : {"STARK_CACHE_DIR", "re-verified", "--force", "stark cache clean -p build --older-than 30"})
    EXPECT_NE(r.output.find(taught), std::string::npos) << taught;
}

}  // namespace
}  // namespace stark
