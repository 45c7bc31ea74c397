#include "report/html.h"

#include <gtest/gtest.h>

#include <regex>

#include "core/file_io.h"
#include "core/process.h"
#include "core/text.h"
#include "report/test_data.h"

namespace stark::report {
namespace {

namespace fs = std::filesystem;
using testing::load_test_input;
using testing::scratch;

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(Html, IsOneSelfContainedFile) {
  auto html = render_html(load_test_input(), {"stark 0.1.0"});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("Content-Security-Policy\" content=\"default-src 'none'"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("https:"), std::string::npos);
  EXPECT_EQ(count(html, "http:"), count(html, "http://www.w3.org/2000/svg")) << "only SVG namespaces, never fetched";
}

TEST(Html, DrawsTheTreeTheChartAndTheDiff) {
  auto html = render_html(load_test_input());
  // saxpy is kernel 0: 30 nodes, the winner #24 ringed, 11 edges on its path, 29 attempts in the chart.
  EXPECT_EQ(count(html, "class=\"node "), 30u + 12u + 9u + 6u + 7u);
  std::regex node0("<g class=\"node [^\"]*\" data-k=\"0\"");
  auto begin = std::sregex_iterator(html.begin(), html.end(), node0);
  EXPECT_EQ(std::distance(begin, std::sregex_iterator()), 30);
  EXPECT_NE(html.find("class=\"node st-accepted best winner\" data-k=\"0\" data-node=\"24\""), std::string::npos);
  EXPECT_NE(html.find("class=\"node st-compile_error best\" data-k=\"0\" data-node=\"16\""), std::string::npos);
  EXPECT_NE(html.find("class=\"node st-root best\" data-k=\"0\" data-node=\"0\""), std::string::npos);
  EXPECT_EQ(count(html, "class=\"edge best\""), 11u + 2u + 2u);  // saxpy, row_softmax, transpose
  std::regex mark0("<g class=\"mark [^\"]*\" data-k=\"0\"");
  begin = std::sregex_iterator(html.begin(), html.end(), mark0);
  EXPECT_EQ(std::distance(begin, std::sregex_iterator()), 29);
  EXPECT_EQ(count(html, "<span class=\"dl add\">"), 22u + 13u + 11u);
  EXPECT_NE(html.find("<span class=\"tok-kw\">__global__</span>"), std::string::npos);
  EXPECT_NE(html.find("above 10× — worth a second look"), std::string::npos);
  EXPECT_NE(html.find("<b>Not checked:</b>memcheck, racecheck — "
                      "compute-sanitizer is not installed on the GPU machine. Not counted as passed."),
            std::string::npos);
}

TEST(Html, TheMemoryRoofIsAColumnAndAFactWhereTheRunMeasuredIt) {
  auto in = load_test_input();
  EXPECT_EQ(render_html(in).find("Memory roof"), std::string::npos);
  in.result.gpu->copy_bandwidth_gbs = 4000;
  in.kernels[0].result.captures = {
      {"c1", *in.kernels[0].result.baseline_us, *in.kernels[0].result.best_us, uint64_t{600'000'000}}};
  auto html = render_html(in);
  EXPECT_NE(html.find(">Memory roof</th>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num\">36% → 67%</td>"), std::string::npos) << "saxpy: 412 µs -> 224 µs";
  EXPECT_NE(html.find("2.68 TB/s of 4.00 TB/s"), std::string::npos);
}

// Each node's profile facts travel to the page, where its panel shows them.
TEST(Html, ANodesProfileFactsAreInItsPanel) {
  auto in = load_test_input();
  in.kernels[0].result.tree[0].profile.resources = {{"_Z5saxpyifPKfPf", 16, 0, 0}};
  in.kernels[0].result.tree[0].profile.occupancy = 1.0;
  auto html = render_html(in);
  EXPECT_NE(html.find("\"profile\":\"16 registers, no stack (no spills); occupancy 100%\""), std::string::npos);
  EXPECT_NE(html.find("\"profile: \" + node.profile"), std::string::npos);
}

TEST(Html, TheBuiltInExpertHasNoTokensAndUntimedAttemptsAreNotDrawnAsFailed) {
  auto in = load_test_input();
  in.result.backend = {"builtin", ""};
  for (auto& n : in.kernels[0].result.tree)
    if (n.parent && n.status != NodeStatus::Accepted) n.status = NodeStatus::Untimed;
  auto html = render_html(in);
  EXPECT_EQ(html.find("LLM tokens"), std::string::npos);
  EXPECT_EQ(html.find(">Tokens</th>"), std::string::npos);
  EXPECT_EQ(html.find("tokens in / out"), std::string::npos);
  EXPECT_NE(html.find("<circle class=\"untimed\""), std::string::npos);
  EXPECT_NE(html.find("dy=\"0.32em\">untimed</text>"), std::string::npos);
  // Kernel 1 still has failed attempts: its band says so.
  EXPECT_NE(html.find("dy=\"0.32em\">failed</text>"), std::string::npos);
}

TEST(Html, TextFromTheResultIsEscapedEverywhere) {
  auto in = load_test_input();
  auto& node = in.kernels[0].result.tree[5];
  node.diagnostics = "</script><script>alert(1)</script>";
  node.strategy = "<b onclick=x>bold</b>";
  in.kernels[0].result.assumptions = {"<img src=x>"};
  auto html = render_html(in);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_EQ(html.find("<b onclick"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("\\u003c/script>\\u003cscript>alert(1)"), std::string::npos) << "kept, as data";
  EXPECT_NE(html.find("&lt;img src=x&gt;"), std::string::npos);
}

/// What headless Chromium saw: the page's final DOM and every console message.
struct Rendered {
  int exit_code = -1;
  std::string dom;
  std::vector<std::string> console;  // lines of Chromium's log that come from the page's console
};

std::vector<std::string> chromium_args(const fs::path& profile) {
  return {"timeout",
          "120",
          STARK_CHROMIUM,
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run",
          "--user-data-dir=" + profile.string(),
          "--enable-logging=stderr",
          "--v=0"};
}

/// Loads `html` from a file in headless Chromium and dumps the DOM after its scripts ran.
Rendered render_in_chromium(const std::string& name, const std::string& html) {
  if (std::string(STARK_CHROMIUM).empty()) {
    ADD_FAILURE() << "chromium not found: install it (scripts/install-deps.sh installs the test packages)";
    return {};
  }
  fs::path dir = scratch("chromium_" + name);
  EXPECT_TRUE(write_file_atomic(dir / "report.html", html));
  auto args = chromium_args(dir / "profile");
  args.push_back("--dump-dom");
  args.push_back("file://" + (dir / "report.html").string());
  auto r = run_process(args);
  if (!r) {
    ADD_FAILURE() << r.error().message;
    return {};
  }
  Rendered out{r->status.code, r->output, {}};
  // Chromium logs page console messages (console.log/error, uncaught exceptions,
  // CSP violations) as "[...:INFO:CONSOLE:12] "message", source: ...". The page
  // writes nothing to the console, so any such line is a failure.
  for (std::string_view line : split(r->output, '\n'))
    if (line.find(":CONSOLE") != std::string_view::npos) out.console.emplace_back(line);
  return out;
}

TEST(HtmlInChromium, RendersWithNoConsoleErrorsAndTheScriptRan) {
  auto r = render_in_chromium("clean", render_html(load_test_input(), {"stark 0.1.0"}));
  ASSERT_EQ(r.exit_code, 0) << r.dom.substr(0, 2000);
  EXPECT_TRUE(r.console.empty()) << join(r.console, "\n");
  EXPECT_NE(r.dom.find("<html lang=\"en\" data-stark-ready=\"yes\">"), std::string::npos)
      << "the page script did not finish";
  // The script selected each kernel's winner and filled its panel.
  EXPECT_NE(r.dom.find("<div class=\"panel\" data-k=\"0\"><div class=\"ph\"><span class=\"pill st-accepted\">accepted"
                       "</span><b>node #24</b>"),
            std::string::npos);
  EXPECT_NE(r.dom.find("class=\"node st-accepted best winner selected\" data-k=\"0\" data-node=\"24\""),
            std::string::npos);
}

TEST(HtmlInChromium, AScriptErrorOrBrokenDataIsCaught) {
  // Proves the check above can fail: the same page with a script error, then with broken data.
  std::string html = render_html(load_test_input());
  std::string with_error = html;
  with_error.insert(with_error.rfind("</body>"), "<script>window.noSuchFunction();</script>");
  auto r = render_in_chromium("script_error", with_error);
  ASSERT_EQ(r.exit_code, 0);
  ASSERT_EQ(r.console.size(), 1u) << r.dom.substr(0, 2000);
  EXPECT_NE(r.console[0].find("Uncaught TypeError: window.noSuchFunction is not a function"), std::string::npos)
      << r.console[0];

  std::string broken = html;
  size_t data = broken.find("id=\"stark-data\">") + 16;
  broken.insert(data, "{oops");
  auto b = render_in_chromium("broken_data", broken);
  EXPECT_FALSE(b.console.empty());
  EXPECT_EQ(b.dom.find("data-stark-ready=\"yes\""), std::string::npos);
}

TEST(HtmlInChromium, TakesAScreenshot) {
  fs::path out = fs::path(STARK_BINARY_DIR) / "tests/report";
  fs::create_directories(out);
  ASSERT_TRUE(write_file_atomic(out / "report.html", render_html(load_test_input(), {"stark 0.1.0"})));
  fs::remove(out / "report.png");
  auto args = chromium_args(scratch("chromium_screenshot") / "profile");
  args.push_back("--hide-scrollbars");
  args.push_back("--window-size=1280,2000");
  args.push_back("--screenshot=" + (out / "report.png").string());
  args.push_back("file://" + (out / "report.html").string());
  auto r = run_process(args);
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status.code, 0) << r->output;
  auto png = read_file(out / "report.png");
  ASSERT_TRUE(png) << png.error().message;
  ASSERT_GT(png->size(), 24u);
  EXPECT_EQ(png->substr(1, 3), "PNG");
  auto be32 = [&](size_t at) {
    return (static_cast<unsigned char>((*png)[at]) << 24) | (static_cast<unsigned char>((*png)[at + 1]) << 16) |
           (static_cast<unsigned char>((*png)[at + 2]) << 8) | static_cast<unsigned char>((*png)[at + 3]);
  };
  EXPECT_EQ(be32(16), 1280u);  // IHDR width and height
  EXPECT_EQ(be32(20), 2000u);
  EXPECT_GT(png->size(), 100'000u) << "a page this full compresses to far more than a blank one";
  std::cout << "screenshot: " << (out / "report.png").string() << "\n";
}

}  // namespace
}  // namespace stark::report
