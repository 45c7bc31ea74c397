// In-place writes and the recovery of a run killed between its renames. The
// interrupted states are made by hand, file by file, as a kill would leave
// them: some files renamed, the rest with their temporaries beside them.
#include "rewriter/inplace.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "core/hash.h"
#include "tests/support/temp_dir.h"

namespace stark::rewriter {
namespace {

namespace fs = std::filesystem;

class Inplace : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = tmp_ / "project";
    backup_ = tmp_ / "backup";
    fs::create_directories(root_ / "src");
    for (const char* f : {"src/a.cu", "src/b.cu"}) {
      std::string original = std::string("// original ") + f + "\n";
      ASSERT_TRUE(write_file_atomic(root_ / f, original));
      plan_.files.push_back({f, original, std::string("// optimized ") + f + "\n", content_hash(original), {}, 0});
    }
    plan_.source_root = root_;
  }
  std::string text(const std::string& rel) {
    auto t = read_file(root_ / rel);
    return t ? *t : "<missing>";
  }

  /// What write_in_place leaves when killed after `renamed` of its renames.
  void interrupted_after(size_t renamed, bool temps = true) {
    nlohmann::json files = nlohmann::json::array();
    for (size_t i = 0; i < plan_.files.size(); ++i) {
      const auto& f = plan_.files[i];
      ASSERT_TRUE(write_file_atomic(backup_ / f.path, f.original));
      std::string temp = f.path + ".stark-tmp.4242";
      if (i < renamed) {
        ASSERT_TRUE(write_file_atomic(root_ / f.path, f.updated));
      } else if (temps) {
        ASSERT_TRUE(write_file_atomic(root_ / temp, f.updated));
      }
      files.push_back({{"path", f.path},
                       {"temp", temp},
                       {"backup", (backup_ / f.path).string()},
                       {"original_hash", content_hash(f.original)},
                       {"updated_hash", content_hash(f.updated)}});
    }
    ASSERT_TRUE(write_json_file(root_ / kJournalName, {{"schema", "stark.apply-journal/1"}, {"files", files}}));
  }

  stark::testing::TempDir tmp_;
  fs::path root_;
  fs::path backup_;
  ApplyPlan plan_;
};

TEST_F(Inplace, ACompleteRunLeavesNoJournalAndNoTemporary) {
  auto out = write_in_place(plan_, backup_);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(text("src/a.cu"), "// optimized src/a.cu\n");
  EXPECT_EQ(text("src/b.cu"), "// optimized src/b.cu\n");
  EXPECT_FALSE(fs::exists(root_ / kJournalName));
  for (const auto& e : fs::recursive_directory_iterator(root_))
    EXPECT_EQ(e.path().string().find(".stark-tmp"), std::string::npos) << e.path();
}

TEST_F(Inplace, AKillAfterTheFirstRenameIsFinished) {
  interrupted_after(1);
  auto r = recover_in_place(root_);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->outcome, Recovery::Outcome::Finished);
  EXPECT_EQ(r->files, (std::vector<std::string>{"src/a.cu", "src/b.cu"}));
  EXPECT_EQ(text("src/a.cu"), "// optimized src/a.cu\n");
  EXPECT_EQ(text("src/b.cu"), "// optimized src/b.cu\n");
  EXPECT_FALSE(fs::exists(root_ / "src/b.cu.stark-tmp.4242"));
  EXPECT_FALSE(fs::exists(root_ / kJournalName));
}

TEST_F(Inplace, AKillThatLostATemporaryIsUndone) {
  interrupted_after(1, /*temps=*/false);
  auto r = recover_in_place(root_);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->outcome, Recovery::Outcome::RolledBack);
  EXPECT_EQ(text("src/a.cu"), "// original src/a.cu\n");
  EXPECT_EQ(text("src/b.cu"), "// original src/b.cu\n");
  EXPECT_FALSE(fs::exists(root_ / kJournalName));
}

TEST_F(Inplace, AFileEditedSinceIsNeverOverwritten) {
  interrupted_after(1);
  ASSERT_TRUE(write_file_atomic(root_ / "src/b.cu", "// the user's edit\n"));
  auto r = recover_in_place(root_);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("src/b.cu holds neither its original nor its new content"), std::string::npos)
      << r.error().message;
  EXPECT_EQ(text("src/b.cu"), "// the user's edit\n");
  EXPECT_EQ(text("src/a.cu"), "// optimized src/a.cu\n");
  EXPECT_TRUE(fs::exists(root_ / kJournalName));  // still there to recover once the edit is sorted out
}

TEST_F(Inplace, AJournalCannotReachOutsideTheSourceRoot) {
  interrupted_after(0);
  auto j = read_json_file(root_ / kJournalName);
  (*j)["files"][0]["path"] = "../outside.cu";
  ASSERT_TRUE(write_json_file(root_ / kJournalName, *j));
  auto r = recover_in_place(root_);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("outside"), std::string::npos) << r.error().message;
}

TEST_F(Inplace, NothingToRecoverIsSaid) {
  auto r = recover_in_place(root_);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("there is no interrupted apply to recover"), std::string::npos);
}

}  // namespace
}  // namespace stark::rewriter
