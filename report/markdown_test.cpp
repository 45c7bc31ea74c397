#include "report/markdown.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "report/test_data.h"

namespace stark::report {
namespace {

using testing::load_test_input;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Markdown, SummaryTableHasEveryKernelWithItsFigures) {
  auto md = render_markdown(load_test_input(), {"stark 9.9"});
  EXPECT_EQ(md.rfind(kMarkdownMarker, 0), 0u);
  EXPECT_TRUE(has(md, "## ⚡ STARK: 3 of 6 kernels faster (geometric mean 4.17×)")) << md;
  EXPECT_TRUE(has(md, "Measured on **NVIDIA H200 (sm\\_90, driver 580.95.05, CUDA 13.0)**")) << md;
  EXPECT_TRUE(has(md, "| `saxpy` | ✅ improved | 412 µs | 224 µs | **1.84×** | 29 | 474k | $1.84 |")) << md;
  EXPECT_TRUE(has(md, "| `row_softmax` | ✅ improved | 8.63 ms | 685 µs | **12.6×** ⚠️ | 11 | 211k | $0.79 |")) << md;
  EXPECT_TRUE(has(md, "| `histogram` | ❌ failed | 95.1 µs | — | — | 6 | 72.9k | $0.26 |")) << md;
  EXPECT_TRUE(has(md, "| `clamp` | ⏭️ skipped | — | — | — | 0 | 0 | — |")) << md;
  EXPECT_TRUE(has(md, "stark 9.9")) << md;
}

TEST(Markdown, TheMemoryRoofColumnAppearsWhereTheRunMeasuredIt) {
  auto in = load_test_input();
  EXPECT_FALSE(has(render_markdown(in), "Memory roof"));
  in.result.gpu->copy_bandwidth_gbs = 4000;
  for (auto& kr : in.kernels)
    if (kr.result.id.find("saxpy") != std::string::npos)
      kr.result.captures = {{"c1", *kr.result.baseline_us, *kr.result.best_us, uint64_t{600'000'000}}};
  auto md = render_markdown(in);
  EXPECT_TRUE(has(md, "| Kernel | Status | Baseline | Best | Speedup | Memory roof | Attempts | Tokens | Cost |"))
      << md;
  EXPECT_TRUE(has(md, "| `saxpy` | ✅ improved | 412 µs | 224 µs | **1.84×** | 36% → 67% | 29 | 474k | $1.84 |")) << md;
  EXPECT_TRUE(has(md, "| `clamp` | ⏭️ skipped | — | — | — | — | 0 | 0 | — |")) << md;
  EXPECT_TRUE(has(md, "36% → **67%** of the memory roof (2.68 TB/s of the 4.00 TB/s copy bandwidth measured).")) << md;
}

TEST(Markdown, ImprovedKernelShowsChecksAssumptionsAndTheFoldedDiff) {
  auto md = render_markdown(load_test_input());
  EXPECT_TRUE(has(md, "### `saxpy` — 1.84× faster · `src/ops.cu:4`")) << md;
  EXPECT_TRUE(has(md, "✅ 8 passed: `correctness`, `fuzzed_inputs`, `baseline_replay`")) << md;
  EXPECT_TRUE(has(md,
                  "⚠️ could not run: `memcheck`, `racecheck` "
                  "(compute-sanitizer is not installed on the GPU machine)"))
      << md;
  EXPECT_TRUE(has(md, "**Assumes:** \\_\\_restrict\\_\\_ added to x and y")) << md;
  EXPECT_TRUE(has(md, "**Launch:** grid `ceil_div(n, 4096)`, block `256`")) << md;
  EXPECT_TRUE(has(md, "<details><summary>Diff: src/ops.cu (+22 −3)</summary>\n\n```diff\n--- a/src/ops.cu\n")) << md;
  EXPECT_TRUE(has(md, "\n+  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 16;\n")) << md;
  EXPECT_TRUE(has(md, "**Launch:** grid `(ceil_div(cols, 32), ceil_div(rows, 32), 1)`, block `(32, 8, 1)`")) << md;
  EXPECT_TRUE(has(md, "(from the result cache, re-verified)")) << md;
}

TEST(Markdown, SpeedupsAboveTenGetASecondLook) {
  auto md = render_markdown(load_test_input());
  auto softmax = md.substr(md.find("### `row_softmax`"));
  softmax = softmax.substr(0, softmax.find("\n### ", 1));
  EXPECT_TRUE(has(softmax, "⚠️ Above 10×: worth a second look")) << softmax;
  auto saxpy = md.substr(md.find("### `saxpy`"));
  saxpy = saxpy.substr(0, saxpy.find("\n### ", 1));
  EXPECT_FALSE(has(saxpy, "second look")) << saxpy;
}

TEST(Markdown, KernelsThatDidNotImproveGetOneLineEach) {
  auto md = render_markdown(load_test_input());
  auto rest = md.substr(md.find("### Not improved"));
  EXPECT_TRUE(has(rest,
                  "- `scale_bias` no gain · `src/ops.cu:10`: best attempt 0.98× (118 µs → 121 µs); 5 attempts "
                  "(4 accepted, 1 rejected)"))
      << rest;
  EXPECT_TRUE(has(rest,
                  "- `histogram` failed · `src/histogram.cu:4`: 6 attempts (1 compile\\_error, 1 error, 4 "
                  "rejected); `correctness: no attempt produced bins equal to the original's`; "
                  "e.g. `racecheck: 412 shared-memory hazards"))
      << rest;
  EXPECT_TRUE(has(rest, "- `clamp` skipped · `src/ops.cu:16`: not searched")) << rest;
}

TEST(Markdown, DiffsAreDroppedLargestFirstToFitGitHubsLimit) {
  auto in = load_test_input();
  auto full = render_markdown(in);
  size_t largest = 0;
  for (size_t i = 0; i < 3; ++i)
    if (in.kernels[i].change->diff.size() > in.kernels[largest].change->diff.size()) largest = i;
  auto summary = [&](size_t i) { return "Diff: " + in.kernels[i].change->edits[0].file + " ("; };
  auto md = render_markdown(in, {"STARK", full.size() - 10});
  EXPECT_LE(md.size(), full.size() - 10);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(has(md, summary(i)), i != largest) << i << "\n" << md;
  EXPECT_TRUE(has(md, fmt::format("_Diff (+{} −{}) left out to keep this comment under GitHub's size limit: see the "
                                  "patch._",
                                  in.kernels[largest].change->added, in.kernels[largest].change->removed)))
      << md;
  auto tiny = render_markdown(in, {"STARK", 2000});
  EXPECT_FALSE(has(tiny, "```diff")) << "every diff left out when nothing else fits";
  EXPECT_TRUE(has(tiny, "| `saxpy` |")) << "the table comes first and stays";
  EXPECT_LE(tiny.size(), 2000u);
}

TEST(Markdown, TextFromTheResultCannotBreakTheTableOrInjectHtml) {
  auto in = load_test_input();
  in.kernels[0].result.id = "src/ops.cu:we|ird`name";
  in.kernels[0].result.assumptions = {"<img src=x onerror=alert(1)> | *bold*"};
  in.kernels[0].change->diff += "```\nbreakout\n";
  auto md = render_markdown(in);
  EXPECT_TRUE(has(md, "| ``we/ird`name`` | ✅ improved |")) << md;
  EXPECT_TRUE(has(md, "\\<img src=x onerror=alert(1)\\> \\| \\*bold\\*")) << md;
  for (size_t at = md.find("<img"); at != std::string::npos; at = md.find("<img", at + 1))
    EXPECT_EQ(md[at - 1], '\\') << "unescaped HTML at " << at;
  EXPECT_TRUE(has(md, "````diff\n")) << "a longer fence than any run of backticks in the diff";
}

TEST(Markdown, AReportTooLongEvenWithoutDiffsIsCutAtALineAndSaysWhereTheRestIs) {
  auto in = load_test_input();
  while (in.kernels.size() < 2000) in.kernels.push_back(in.kernels[3]);  // a no-gain kernel, one line each
  auto md = render_markdown(in);
  EXPECT_LE(md.size(), 60000u);
  EXPECT_TRUE(has(md,
                  "\n_The rest of this report is cut to stay under GitHub's comment limit: `stark report --format "
                  "html` has every kernel._\n"))
      << md.substr(md.size() - 300);
}

TEST(Markdown, NoTokenOrCostColumnsForTheBuiltInExpert) {
  auto in = load_test_input();
  in.result.backend = {"builtin", ""};
  auto md = render_markdown(in);
  EXPECT_TRUE(has(md, "| Kernel | Status | Baseline | Best | Speedup | Attempts |\n")) << md;
  EXPECT_TRUE(has(md, "| `saxpy` | ✅ improved | 412 µs | 224 µs | **1.84×** | 29 |\n")) << md;
  EXPECT_FALSE(has(md, "tokens")) << md;
  EXPECT_FALSE(has(md, "$")) << md;
}

TEST(Markdown, ResultTextMentionsNobodyAndFileNamesCannotLeaveTheSummary) {
  auto in = load_test_input();
  in.kernels[0].result.assumptions = {"ping @octocat and @org/team"};
  ASSERT_FALSE(in.kernels[0].change->edits.empty());
  for (auto& e : in.kernels[0].change->edits) e.file = "src/</summary><h1>x</h1><img src=https://evil/p.png>@a.cu";
  auto md = render_markdown(in);
  EXPECT_TRUE(has(md, "ping @&#8203;octocat and @&#8203;org/team")) << md;
  EXPECT_TRUE(has(md,
                  "<summary>Diff: src/&lt;/summary&gt;&lt;h1&gt;x&lt;/h1&gt;&lt;img src=https://evil/p.png&gt;"
                  "@&#8203;a.cu (+"))
      << md;
  EXPECT_FALSE(has(md, "<h1>")) << md;
  EXPECT_FALSE(has(md, "<img")) << md;
}

}  // namespace
}  // namespace stark::report
