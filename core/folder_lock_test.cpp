#include "core/folder_lock.h"

#include <gtest/gtest.h>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

TEST(FolderLock, ASecondHolderIsRefusedWithTheFirstOnesName) {
  TempDir tmp;
  fs::path dir = tmp / "second";
  auto first = FolderLock::acquire(dir, "stark optimize");
  ASSERT_TRUE(first) << first.error().message;
  auto second = FolderLock::acquire(dir, "stark optimize");
  ASSERT_FALSE(second);
  EXPECT_NE(second.error().message.find("is in use by another run (pid " + std::to_string(::getpid()) +
                                        ": stark optimize since "),
            std::string::npos)
      << second.error().message;
}

TEST(FolderLock, ReleasedWhenTheHolderGoesAway) {
  TempDir tmp;
  fs::path dir = tmp / "release";
  {
    auto held = FolderLock::acquire(dir, "stark optimize");
    ASSERT_TRUE(held);
  }
  EXPECT_TRUE(FolderLock::acquire(dir, "stark apply"));

  // A process killed while holding it leaves nothing locked.
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t child = ::fork();
  if (child == 0) {
    auto held = FolderLock::acquire(dir, "killed run");
    char c = held ? 'y' : 'n';
    (void)!::write(ready[1], &c, 1);
    for (;;) ::pause();
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  auto busy = FolderLock::acquire(dir, "probe");
  ASSERT_FALSE(busy);
  EXPECT_NE(busy.error().message.find(": killed run since "), std::string::npos) << busy.error().message;
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  EXPECT_TRUE(FolderLock::acquire(dir, "stark optimize"));
}

TEST(FolderLock, ALinkPlantedAsTheLockFileIsNotFollowed) {
  // A hostile result folder could make the lock file a link to a user's file,
  // which the holder's note would overwrite.
  TempDir tmp;
  fs::path dir = tmp / "link";
  fs::create_directories(dir);
  ASSERT_TRUE(write_file_atomic(dir / "precious.txt", "keep me\n"));
  fs::create_symlink(dir / "precious.txt", dir / ".stark-lock");
  auto lock = FolderLock::acquire(dir, "stark optimize");
  EXPECT_FALSE(lock);
  EXPECT_EQ(*read_file(dir / "precious.txt"), "keep me\n");
}

}  // namespace
}  // namespace stark
