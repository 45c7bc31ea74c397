#include "report/changes.h"

#include <gtest/gtest.h>

#include "core/file_io.h"
#include "core/hash.h"
#include "report/test_data.h"

namespace stark::report {
namespace {

namespace fs = std::filesystem;
using testing::copy_test_data;
using testing::data_dir;
using testing::scratch;

TEST(KeepAnnotation, PutsTheAttributeBackBeforeAPlainKernel) {
  std::string original = "[[stark::optimize(\"budget=30\")]]\n__global__ void k(int n) {\n}";
  EXPECT_EQ(keep_annotation(original, "__global__ void k(int n) { fast(); }"),
            "[[stark::optimize(\"budget=30\")]]\n__global__ void k(int n) { fast(); }");
}

TEST(KeepAnnotation, PutsTheMacroBackAfterATemplateHeader) {
  std::string original =
      "template <typename T, int N = (4 > 2 ? 1 : 2)>\nSTARK_OPTIMIZE(\"a=(1)\", \"b=]\")\n__global__ void k() {}";
  EXPECT_EQ(keep_annotation(original, "template <typename T, int N = (4 > 2 ? 1 : 2)>  __global__ void k() { x(); }"),
            "template <typename T, int N = (4 > 2 ? 1 : 2)>  STARK_OPTIMIZE(\"a=(1)\", \"b=]\")\n__global__ void k() { "
            "x(); }");
}

TEST(KeepAnnotation, LeavesAnAnnotatedOrUnannotatedVariantAlone) {
  std::string original = "STARK_OPTIMIZE()\n__global__ void k() {}";
  EXPECT_EQ(keep_annotation(original, "STARK_OPTIMIZE(\"budget=2\")\n__global__ void k() { y(); }"),
            "STARK_OPTIMIZE(\"budget=2\")\n__global__ void k() { y(); }");
  EXPECT_EQ(keep_annotation("__global__ void k() {}", "__global__ void k() { y(); }"), "__global__ void k() { y(); }");
}

TEST(PositionOf, CountsLinesAndCodePoints) {
  std::string text = "ab\n// µs×\nx";
  EXPECT_EQ(position_of(text, 0), (TextPosition{1, 1}));
  EXPECT_EQ(position_of(text, 3), (TextPosition{2, 1}));
  EXPECT_EQ(position_of(text, text.find('\n', 3)), (TextPosition{2, 7}));  // after "// µs×": 6 code points, 9 bytes
  EXPECT_EQ(position_of(text, text.size()), (TextPosition{3, 2}));
}

Kernel saxpy_kernel() {
  auto m = load_manifest((data_dir() / "result/manifest.json").string());
  EXPECT_TRUE(m) << m.error().message;
  return *m->find_kernel("src/ops.cu:saxpy");
}

KernelResult saxpy_result() {
  auto r = load_result((data_dir() / "result").string());
  EXPECT_TRUE(r) << r.error().message;
  return r->kernels.at(0);
}

TEST(KernelRangeEdits, ReplacesTheRangeKeepsTheAnnotationAndNotesTheLaunch) {
  Kernel k = saxpy_kernel();
  KernelResult r = saxpy_result();
  auto plan = kernel_range_edits(k, r, data_dir() / "project");
  ASSERT_TRUE(plan) << plan.error().message;
  ASSERT_EQ(plan->edits.size(), 1u);
  EXPECT_EQ(plan->edits[0].file, "src/ops.cu");
  EXPECT_EQ(plan->edits[0].range, k.range);
  EXPECT_EQ(plan->edits[0].replacement, "[[stark::optimize(\"budget=30\")]]\n" + r.best->source);
  ASSERT_EQ(plan->notes.size(), 1u);
  EXPECT_NE(plan->notes[0].find("grid ceil_div(n, 4096); block 256 at 1 launch site"), std::string::npos)
      << plan->notes[0];
}

TEST(KernelRangeEdits, RefusesARangeOutsideTheFile) {
  Kernel k = saxpy_kernel();
  k.range.end = 1 << 20;
  auto plan = kernel_range_edits(k, saxpy_result(), data_dir() / "project");
  ASSERT_FALSE(plan);
  EXPECT_NE(plan.error().message.find("lies outside src/ops.cu"), std::string::npos) << plan.error().message;
}

TEST(ApplyPlan, AppliesSeveralEditsOfOneFileAndLocatesEach) {
  fs::path root = scratch("apply_plan");
  std::string text = "int a;\nint b;\nint c;\n";
  ASSERT_TRUE(write_file_atomic(root / "f.cu", text));
  EditPlan plan{{{"f.cu", {11, 12}, "B"}, {"f.cu", {4, 5}, "A"}, {"f.cu", {21, 21}, "int d;\n"}}, {"a note"}};
  auto c = apply_plan(plan, root, {{"f.cu", {content_hash(text)}}});
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->diff, "--- a/f.cu\n+++ b/f.cu\n@@ -1,3 +1,4 @@\n-int a;\n-int b;\n+int A;\n+int B;\n int c;\n+int d;\n");
  EXPECT_EQ(c->added, 3);
  EXPECT_EQ(c->removed, 2);
  ASSERT_EQ(c->regions.size(), 3u);
  EXPECT_EQ(c->regions[0].begin, (TextPosition{2, 5}));
  EXPECT_EQ(c->regions[0].end, (TextPosition{2, 6}));
  EXPECT_EQ(c->regions[2].begin, (TextPosition{4, 1}));
  EXPECT_EQ(c->notes, std::vector<std::string>{"a note"});
}

TEST(ApplyPlan, RefusesAFileChangedSinceTheScan) {
  fs::path root = scratch("apply_plan_stale");
  ASSERT_TRUE(write_file_atomic(root / "f.cu", "int a;\n"));
  auto c = apply_plan({{{"f.cu", {0, 3}, "long"}}, {}}, root, {{"f.cu", {content_hash("int b;\n")}}});
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().message,
            "f.cu changed since the scan (content hash differs from the manifest); re-run stark scan");
}

TEST(ApplyPlan, RefusesOverlappingEdits) {
  fs::path root = scratch("apply_plan_overlap");
  ASSERT_TRUE(write_file_atomic(root / "f.cu", "int a;\n"));
  auto c = apply_plan({{{"f.cu", {0, 5}, "x"}, {"f.cu", {3, 6}, "y"}}, {}}, root, {});
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("overlaps another"), std::string::npos) << c.error().message;
}

TEST(ApplyPlan, TheKernelDiffAppliesWithGit) {
  fs::path dir = copy_test_data("git_apply_kernel");
  Kernel k = saxpy_kernel();
  auto plan = kernel_range_edits(k, saxpy_result(), dir / "project");
  ASSERT_TRUE(plan);
  auto c = apply_plan(*plan, dir / "project", {});
  ASSERT_TRUE(c) << c.error().message;
  ASSERT_TRUE(write_file_atomic(dir / "k.patch", c->diff));
  auto r = run_process({"git", "apply", (dir / "k.patch").string()}, ProcessOptions::in(dir / "project"));
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status.code, 0) << r->output;
  auto after = read_file(dir / "project/src/ops.cu");
  ASSERT_TRUE(after);
  EXPECT_NE(after->find("[[stark::optimize(\"budget=30\")]]\n__global__ void __launch_bounds__(256, 8)\nsaxpy("),
            std::string::npos)
      << *after;
  EXPECT_EQ(after->find("if (i < n) y[i] = a * x[i] + y[i];"), std::string::npos);
  EXPECT_NE(after->find("STARK_OPTIMIZE(\"budget=6\")\n__global__ void scale_bias"), std::string::npos);
}

TEST(EditsBetween, TurnARewrittenFileIntoEditsThatApplyPlanAccepts) {
  fs::path root = scratch("edits_between");
  std::string original = "a;\nb;\nc;\nd;\n", updated = "a;\nB;\nc;\nd;\ne;\n";
  ASSERT_TRUE(write_file_atomic(root / "f.cu", original));
  auto edits = edits_between("f.cu", original, updated);
  ASSERT_EQ(edits.size(), 2u);
  EXPECT_EQ(edits[0], (SourceEdit{"f.cu", {3, 6}, "B;\n"}));
  EXPECT_EQ(edits[1], (SourceEdit{"f.cu", {12, 12}, "e;\n"}));
  auto c = apply_plan({edits, {}}, root, {{"f.cu", {content_hash(original)}}});
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->added, 2);
  EXPECT_EQ(c->removed, 1);
}

}  // namespace
}  // namespace stark::report
