#include "core/unified_diff.h"

#include <gtest/gtest.h>

#include "core/file_io.h"
#include "core/process.h"
#include "tests/support/temp_dir.h"
#include <random>

namespace stark {
namespace {

namespace fs = std::filesystem;
using stark::testing::TempDir;

TEST(UnifiedDiff, EqualTextsGiveNoDiff) {
  auto d = unified_diff("a.cu", "x\ny\n", "x\ny\n");
  EXPECT_EQ(d.text, "");
  EXPECT_EQ(d.added + d.removed, 0);
}

TEST(UnifiedDiff, ExactFormatWithRemovedLinesFirst) {
  std::string before = "1\n2\n3\n4\n5\nold a\nold b\n8\n9\n10\n11\n";
  std::string after = "1\n2\n3\n4\n5\nnew a\nnew b\nnew c\n8\n9\n10\n11\n";
  auto d = unified_diff("src/k.cu", before, after);
  EXPECT_EQ(
      d.text,
      "--- a/src/k.cu\n+++ b/src/k.cu\n@@ -3,8 +3,9 @@\n 3\n 4\n 5\n-old a\n-old b\n+new a\n+new b\n+new c\n 8\n 9\n"
      " 10\n");
  EXPECT_EQ(d.added, 3);
  EXPECT_EQ(d.removed, 2);
}

TEST(UnifiedDiff, FarApartChangesMakeTwoHunksAndNearOnesOne) {
  std::string before, far_after, near_after;
  for (int i = 1; i <= 30; ++i) {
    std::string line = std::to_string(i) + "\n";
    before += line;
    far_after += (i == 2 || i == 25) ? "x" + line : line;
    near_after += (i == 10 || i == 16) ? "x" + line : line;  // 5 common lines between: within 2 * 3 context
  }
  auto far = unified_diff("f", before, far_after);
  auto near = unified_diff("f", before, near_after);
  auto hunks = [](const std::string& t) {
    size_t n = 0;
    for (size_t at = t.find("\n@@"); at != std::string::npos; at = t.find("\n@@", at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(hunks(far.text), 2u) << far.text;
  EXPECT_EQ(hunks(near.text), 1u) << near.text;
  EXPECT_NE(far.text.find("@@ -1,5 +1,5 @@"), std::string::npos) << far.text;
}

TEST(UnifiedDiff, MissingFinalNewlineIsMarked) {
  auto d = unified_diff("f", "a\nb", "a\nc");
  EXPECT_EQ(
      d.text,
      "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
}

/// Whatever the edit, `git apply` must turn `before` into `after`.
TEST(UnifiedDiff, GitAppliesEveryDiff) {
  struct Case {
    const char* name;
    std::string before, after;
  };
  std::string base;
  for (int i = 0; i < 40; ++i) base += "line " + std::to_string(i) + ";\n";
  std::vector<Case> cases = {
      {"insert_at_start", base, "// new header\n" + base},
      {"delete_at_end", base, base.substr(0, base.rfind("line 37"))},
      {"replace_middle", base, base.substr(0, 100) + "replaced\nwith two\n" + base.substr(140)},
      {"append_without_newline", base, base + "tail"},
      {"drop_final_newline", base, base.substr(0, base.size() - 1)},
      {"empty_to_text", "", "one\ntwo\n"},
      {"text_to_empty", "one\ntwo\n", ""},
      {"scattered", base,
       [&] {
         std::string s = base;
         s.replace(s.find("line 3;"), 7, "LINE 3;");
         s.replace(s.find("line 20;"), 8, "L20;\nextra;");
         s.replace(s.find("line 39;\n"), 9, "");
         return s;
       }()},
  };
  for (const auto& c : cases) {
    TempDir tmp;
    const fs::path& dir = tmp.path();
    ASSERT_TRUE(write_file_atomic(dir / "src/k.cu", c.before));
    auto d = unified_diff("src/k.cu", c.before, c.after);
    ASSERT_TRUE(write_file_atomic(dir / "change.patch", d.text));
    auto r = run_process({"git", "apply", "change.patch"}, ProcessOptions::in(dir));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status.code, 0) << c.name << ": " << r->output << "\n" << d.text;
    auto got = read_file(dir / "src/k.cu");
    ASSERT_TRUE(got);
    EXPECT_EQ(*got, c.after) << c.name << "\n" << d.text;
  }
}

}  // namespace
}  // namespace stark

namespace stark {
namespace {

std::string apply_spans(std::string text, std::vector<ChangedSpan> spans) {
  for (auto it = spans.rbegin(); it != spans.rend(); ++it) text.replace(it->begin, it->end - it->begin, it->text);
  return text;
}

TEST(ChangedSpans, AreWholeLineReplacementsThatRebuildTheNewText) {
  std::string base;
  for (int i = 0; i < 20; ++i) base += "line " + std::to_string(i) + ";\n";
  std::string scattered = base;
  scattered.replace(scattered.find("line 3;"), 7, "LINE 3;");
  scattered.replace(scattered.find("line 15;\n"), 9, "");
  for (const auto& [before, after] : std::vector<std::pair<std::string, std::string>>{
           {base, scattered}, {base, "head\n" + base + "tail"}, {"", "a\n"}, {"a\nb", "a\nc\n"}, {base, ""}}) {
    auto spans = changed_spans(before, after);
    EXPECT_EQ(apply_spans(before, spans), after);
    for (const auto& s : spans) {
      EXPECT_TRUE(s.begin == 0 || before[s.begin - 1] == '\n') << "starts a line";
      EXPECT_TRUE(s.end == s.begin || s.end == static_cast<int64_t>(before.size()) || before[s.end - 1] == '\n')
          << "ends a line";
    }
  }
  auto two = changed_spans(base, scattered);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0], (ChangedSpan{static_cast<int64_t>(base.find("line 3;")), static_cast<int64_t>(base.find("line 4;")),
                                 "LINE 3;\n"}));
  EXPECT_EQ(two[1].text, "");
  EXPECT_TRUE(changed_spans(base, base).empty());
}

std::string git_diff(std::string_view path, std::string_view before, std::string_view after) {
  return unified_diff(path, before, after, 3, DiffHeader::Git).text;
}

TEST(UnifiedDiff, GitHeaderOneHunkWithThreeLinesOfContext) {
  std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  std::string after = "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n";
  EXPECT_EQ(git_diff("src/a.cu", before, after),
            "diff --git a/src/a.cu b/src/a.cu\n--- a/src/a.cu\n+++ b/src/a.cu\n"
            "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n");
}

TEST(UnifiedDiff, GitHeaderMissingFinalNewlineIsMarked) {
  std::string d = git_diff("a.cu", "a\nb", "a\nc");
  EXPECT_EQ(d,
            "diff --git a/a.cu b/a.cu\n--- a/a.cu\n+++ b/a.cu\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n"
            "+c\n\\ No newline at end of file\n");
}

TEST(UnifiedDiff, GitHeaderInsertionAtTheTopAndFarApartChanges) {
  std::string before, after = "// new\n";
  for (int i = 1; i <= 30; ++i) {
    before += std::to_string(i) + "\n";
    after += (i == 15 ? "fifteen" : std::to_string(i)) + "\n";
  }
  std::string d = git_diff("a.cu", before, after);
  EXPECT_NE(d.find("@@ -1,3 +1,4 @@\n+// new\n 1\n 2\n 3\n"), std::string::npos) << d;
  EXPECT_NE(d.find("@@ -12,7 +13,7 @@\n"), std::string::npos) << d;
}

// The real judge: git applies every diff we print and gets the new text back.
TEST(UnifiedDiff, GitAppliesRandomEditsWithTheGitHeader) {
  TempDir tmp;
  const fs::path& dir = tmp.path();
  ASSERT_EQ(run_process({"git", "init", "-q", dir.string()})->status.code, 0);
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
        case 1:
          if (at < edited.size()) edited.erase(edited.begin() + static_cast<long>(at));
          break;
        default:
          if (at < edited.size()) edited[at] = "changed " + std::to_string(e) + "\n";
      }
    }
    std::string after;
    for (const auto& l : edited) after += l;
    if (rng() % 4 == 0 && !after.empty()) after.pop_back();
    if (after == before) continue;
    ASSERT_TRUE(write_file_atomic(dir / "f.cu", before));
    ASSERT_TRUE(write_file_atomic(dir / "p.diff", git_diff("f.cu", before, after)));
    auto r = run_process({"git", "apply", "--verbose", "p.diff"}, ProcessOptions::in(dir));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status.code, 0) << r->output << "\n" << *read_file(dir / "p.diff");
    ASSERT_NE(r->output.find("Applied patch f.cu cleanly"), std::string::npos) << r->output;
    EXPECT_EQ(*read_file(dir / "f.cu"), after) << "round " << round;
  }
}

}  // namespace
}  // namespace stark
