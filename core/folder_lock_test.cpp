#include "core/folder_lock.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "core/file_io.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const char* name) {
  fs::path dir = fs::temp_directory_path() / fmt::format("stark_folder_lock_{}_{}", name, ::getpid());
  fs::remove_all(dir);
  return dir;
}

TEST(FolderLock, ASecondHolderIsRefusedWithTheFirstOnesName) {
  fs::path dir = scratch("second");
  auto first = FolderLock::acquire(dir, "stark optimize");
  ASSERT_TRUE(first) << first.error().message;
  auto second = FolderLock::acquire(dir, "stark optimize");
  ASSERT_FALSE(second);
  EXPECT_NE(second.error().message.find("is in use by another run (pid " + std::to_string(::getpid()) +
                                        ": stark optimize since "),
            std::string::npos)
      << second.error().message;
  fs::remove_all(dir);
}

TEST(FolderLock, ReleasedWhenTheHolderGoesAway) {
  fs::path dir = scratch("release");
  { auto held = FolderLock::acquire(dir, "stark optimize"); ASSERT_TRUE(held); }
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
  fs::remove_all(dir);
}

TEST(FolderLock, ALinkPlantedAsTheLockFileIsNotFollowed) {
  // A hostile result folder could make the lock file a link to a user's file,
  // which the holder's note would overwrite.
  fs::path dir = scratch("link");
  fs::create_directories(dir);
  ASSERT_TRUE(write_file_atomic(dir / "precious.txt", "keep me\n"));
  fs::create_symlink(dir / "precious.txt", dir / ".stark-lock");
  auto lock = FolderLock::acquire(dir, "stark optimize");
  EXPECT_FALSE(lock);
  EXPECT_EQ(*read_file(dir / "precious.txt"), "keep me\n");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace stark
