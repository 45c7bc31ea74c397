#include "core/paths.h"

#include <gtest/gtest.h>

#include "core/file_io.h"

namespace stark {
namespace {

TEST(Paths, DisplayPathIsRelativeInsideRoot) {
  EXPECT_EQ(display_path("/p/src/a.cu", "/p"), "src/a.cu");
  EXPECT_EQ(display_path("/p/src/../inc/a.cuh", "/p/"), "inc/a.cuh");
  EXPECT_EQ(display_path("/q/a.cu", "/p"), "/q/a.cu");
  EXPECT_EQ(display_path("/pp/a.cu", "/p"), "/pp/a.cu");
}

TEST(Paths, CommonAncestor) {
  EXPECT_EQ(common_ancestor({"/p/src/a.cu", "/p/include/x/b.h"}), "/p");
  EXPECT_EQ(common_ancestor({"/p/src/a.cu"}), "/p/src");
  EXPECT_EQ(common_ancestor({"/a/x.cu", "/b/y.cu"}), "/");
}

namespace fs = std::filesystem;

// A result's paths are hostile: each of these reached a file outside the
// project (an absolute "backup" path even overwrote its own target).
TEST(Paths, ConfinePathKeepsResultPathsInsideTheRoot) {
  fs::path base = fs::path(STARK_BINARY_DIR) / "tests/core-scratch/confine";
  fs::remove_all(base);
  fs::path root = base / "root", outside = base / "outside";
  ASSERT_TRUE(write_file_atomic(root / "src/a.cu", "a"));
  ASSERT_TRUE(write_file_atomic(outside / "secret.txt", "s"));
  fs::create_directory_symlink(outside, root / "src/escape");
  fs::create_symlink(outside / "secret.txt", root / "src/link.cu");
  fs::create_symlink(root / "src/a.cu", root / "src/alias.cu");

  auto ok = confine_path(root, "src/a.cu");
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(*ok, fs::canonical(root / "src/a.cu"));
  EXPECT_EQ(*confine_path(root, "./src/x/../a.cu"), fs::canonical(root / "src/a.cu"));
  EXPECT_EQ(*confine_path(root, "src/new.cu"), fs::canonical(root / "src") / "new.cu");  // need not exist
  EXPECT_EQ(*confine_path(root, "src/alias.cu"), fs::canonical(root / "src/a.cu"));      // a link inside is fine

  for (const char* hostile : {"", "/etc/passwd", "../outside/secret.txt", "src/../../outside/secret.txt", ".", "src/..",
                              "src/escape/secret.txt", "src/link.cu"}) {
    auto r = confine_path(root, hostile);
    EXPECT_FALSE(r) << hostile << " -> " << r->string();
  }
  EXPECT_NE(confine_path(root, "/etc/passwd").error().message.find("'/etc/passwd' is absolute"), std::string::npos);
  EXPECT_NE(confine_path(root, "src/escape/secret.txt").error().message.find("through a symbolic link"),
            std::string::npos);
  EXPECT_FALSE(confine_path(root, std::string_view("src/a.cu\0x", 10)));
}

}  // namespace
}  // namespace stark
