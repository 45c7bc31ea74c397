#include "rewriter/unified_diff.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "core/file_io.h"
#include "core/process.h"

namespace stark::rewriter {
namespace {

namespace fs = std::filesystem;

TEST(UnifiedDiff, EqualFilesGiveNothing) { EXPECT_EQ(unified_diff("a.cu", "x\ny\n", "x\ny\n"), ""); }

TEST(UnifiedDiff, OneHunkWithThreeLinesOfContext) {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  std::string after = "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n";
  EXPECT_EQ(unified_diff("src/a.cu", before, after),
            "diff --git a/src/a.cu b/src/a.cu\n--- a/src/a.cu\n+++ b/src/a.cu\n"
            "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n");
}

TEST(UnifiedDiff, MissingFinalNewlineIsMarked) {
  std::string d = unified_diff("a.cu", "a\nb", "a\nc");
  EXPECT_EQ(d, "diff --git a/a.cu b/a.cu\n--- a/a.cu\n+++ b/a.cu\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n"
               "+c\n\\ No newline at end of file\n");
}

TEST(UnifiedDiff, InsertionAtTheTopAndFarApartChanges) {
  std::string before, after = "// new\n";
  for (int i = 1; i <= 30; ++i) {
    before += std::to_string(i) + "\n";
    after += (i == 15 ? "fifteen" : std::to_string(i)) + "\n";
  }
  std::string d = unified_diff("a.cu", before, after);
  EXPECT_NE(d.find("@@ -1,3 +1,4 @@\n+// new\n 1\n 2\n 3\n"), std::string::npos) << d;
  EXPECT_NE(d.find("@@ -12,7 +13,7 @@\n"), std::string::npos) << d;
}

// The real judge: git applies every diff we print and gets the new text back.
TEST(UnifiedDiff, GitAppliesRandomEdits) {
  fs::path dir = (std::filesystem::path(STARK_BINARY_DIR) / "tests/rewriter-scratch") / "unified_diff";
  fs::remove_all(dir);
  fs::create_directories(dir);
  ASSERT_EQ(run_process({"git", "init", "-q", dir.string()})->exit_code, 0);
  std::mt19937 rng(7);
  for (int round = 0; round < 40; ++round) {
    std::vector<std::string> lines;
    int n = 1 + static_cast<int>(rng() % 60);
    for (int i = 0; i < n; ++i) lines.push_back("line " + std::to_string(rng() % 10) + "\n");
    std::string before;
    for (const auto& l : lines) before += l;
    if (rng() % 4 == 0) before.pop_back();  // no final newline
    std::vector<std::string> edited = lines;
    for (int e = 0, edits = 1 + static_cast<int>(rng() % 5); e < edits; ++e) {
      size_t at = rng() % (edited.size() + 1);
      switch (rng() % 3) {
        case 0: edited.insert(edited.begin() + static_cast<long>(at), "inserted " + std::to_string(e) + "\n"); break;
        case 1: if (at < edited.size()) edited.erase(edited.begin() + static_cast<long>(at)); break;
        default: if (at < edited.size()) edited[at] = "changed " + std::to_string(e) + "\n";
      }
    }
    std::string after;
    for (const auto& l : edited) after += l;
    if (rng() % 4 == 0 && !after.empty()) after.pop_back();
    if (after == before) continue;
    ASSERT_TRUE(write_file_atomic(dir / "f.cu", before));
    ASSERT_TRUE(write_file_atomic(dir / "p.diff", unified_diff("f.cu", before, after)));
    auto r = run_process({"git", "apply", "--verbose", "p.diff"}, dir);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->exit_code, 0) << r->output << "\n" << *read_file(dir / "p.diff");
    ASSERT_NE(r->output.find("Applied patch f.cu cleanly"), std::string::npos) << r->output;
    EXPECT_EQ(*read_file(dir / "f.cu"), after) << "round " << round;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace stark::rewriter
