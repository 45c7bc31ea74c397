// stark report as a user runs it: every format from the hand-written result
// in tests/report/, written to standard output or to a file, and one-line
// errors with the documented exit codes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "core/file_io.h"
#include "core/process.h"

namespace stark {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = STARK_SOURCE_DIR;
const fs::path kResult = kSource / "tests/report/result";

ProcessResult stark(std::vector<std::string> args) {
  args.insert(args.begin(), STARK_EXE);
  auto r = run_process(args);
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : ProcessResult{};
}

fs::path scratch(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("stark_report_cli_test_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

int validate(const std::string& schema, const fs::path& file) {
  auto r = run_process({STARK_PYTHON, (kSource / "tests/tools/validate_json.py").string(), schema, file.string()});
  EXPECT_TRUE(r);
  EXPECT_EQ(r->exit_code, 0) << r->output;
  return r ? r->exit_code : -1;
}

TEST(ReportCli, MarkdownIsTheDefaultOnStandardOutput) {
  auto r = stark({"report", "--result", kResult.string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("<!-- stark-report -->\n## ⚡ STARK: 3 of 6 kernels faster", 0), 0u) << r.output;
  EXPECT_NE(r.output.find("stark 0.1.0 · times are"), std::string::npos);
}

TEST(ReportCli, EveryFormatToAFile) {
  fs::path dir = scratch("formats");
  for (const char* f : {"md", "html", "sarif", "json"}) {
    fs::path out = dir / (std::string("report.") + f);
    auto r = stark({"report", "--result", kResult.string(), "--format", f, "-o", out.string()});
    EXPECT_EQ(r.exit_code, 0) << f << ": " << r.output;
    EXPECT_EQ(r.output, "") << f << ": nothing on the terminal when writing a file";
    EXPECT_TRUE(fs::exists(out)) << f;
  }
  validate((kSource / "tests/report/sarif-schema-2.1.0.json").string(), dir / "report.sarif");
  validate((kSource / "tests/schemas/report.schema.json").string(), dir / "report.json");
  auto html = read_file(dir / "report.html");
  ASSERT_TRUE(html);
  EXPECT_NE(html->find("<title>STARK report: 3 of 6 kernels faster</title>"), std::string::npos);
}

TEST(ReportCli, ErrorsAreOneLineWithTheDocumentedExitCodes) {
  auto missing = stark({"report", "--result", "/nonexistent/stark-out"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(std::count(missing.output.begin(), missing.output.end(), '\n'), 1) << missing.output;
  EXPECT_EQ(missing.output.rfind("stark: error: ", 0), 0u) << missing.output;
  EXPECT_NE(missing.output.find("/nonexistent/stark-out/result.json"), std::string::npos) << missing.output;

  auto no_result = stark({"report", "--format", "md"});
  EXPECT_EQ(no_result.exit_code, 2);
  EXPECT_NE(no_result.output.find("--result is required"), std::string::npos) << no_result.output;

  auto bad_format = stark({"report", "--result", kResult.string(), "--format", "pdf"});
  EXPECT_EQ(bad_format.exit_code, 2);
  EXPECT_NE(bad_format.output.find("pdf"), std::string::npos) << bad_format.output;
}

TEST(ReportCli, ProblemsThatLeaveOutPartsAreWarnings) {
  fs::path dir = scratch("stale");
  fs::copy(kSource / "tests/report", dir, fs::copy_options::recursive);
  auto text = read_file(dir / "project/src/softmax.cu");
  ASSERT_TRUE(text);
  ASSERT_TRUE(write_file_atomic(dir / "project/src/softmax.cu", *text + "// edited after the run\n"));
  auto r = stark({"report", "--result", (dir / "result").string(), "-o", (dir / "r.md").string()});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "stark: warning: no diff for 'src/softmax.cu:row_softmax': src/softmax.cu changed since the scan "
            "(content hash differs from the manifest); re-run stark scan\n");
  auto md = read_file(dir / "r.md");
  ASSERT_TRUE(md);
  EXPECT_NE(md->find("_No diff: src/softmax.cu changed since the scan"), std::string::npos);
}

}  // namespace
}  // namespace stark
