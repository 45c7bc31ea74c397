#include "core/scratch_dir.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "core/file_io.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

TEST(ScratchDir, IsRemovedWithItsContent) {
  fs::path kept;
  {
    auto dir = ScratchDir::create("unit");
    ASSERT_TRUE(dir) << dir.error().message;
    kept = dir->path();
    EXPECT_NE(kept.filename().string().find(fmt::format("stark-unit-{}-", ::getpid())), std::string::npos);
    ASSERT_TRUE(write_file_atomic(kept / "a/b.o", "x"));
  }
  EXPECT_FALSE(fs::exists(kept));
}

TEST(ScratchDir, AKilledRunsFolderIsRemovedByTheNextOneAndALiveOnesIsNot) {
  fs::path parent = fs::temp_directory_path() / fmt::format("stark_scratch_test_{}", ::getpid());
  fs::remove_all(parent);
  fs::create_directories(parent);
  ::setenv("TMPDIR", parent.c_str(), 1);
  // A process that made its folder and was killed before removing it.
  pid_t child = ::fork();
  if (child == 0) {
    auto dir = ScratchDir::create("unit");
    ::_exit(dir ? (::kill(::getpid(), SIGKILL), 0) : 3);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  auto orphan = fs::directory_iterator(parent)->path();
  ASSERT_NE(orphan.filename().string().find(fmt::format("stark-unit-{}-", child)), std::string::npos);
  // One of a live process (ours), and things that only look alike.
  fs::create_directories(parent / fmt::format("stark-unit-{}-live", ::getpid()));
  fs::create_directories(parent / "stark-unit-notapid");
  fs::create_directories(parent / "stark-other-1-x");

  {
    auto next = ScratchDir::create("unit");
    ASSERT_TRUE(next);
    EXPECT_FALSE(fs::exists(orphan));
  }
  EXPECT_TRUE(fs::exists(parent / fmt::format("stark-unit-{}-live", ::getpid())));
  EXPECT_TRUE(fs::exists(parent / "stark-unit-notapid"));
  EXPECT_TRUE(fs::exists(parent / "stark-other-1-x"));
  ::unsetenv("TMPDIR");
  fs::remove_all(parent);
}

}  // namespace
}  // namespace stark
