#include "report/sarif.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/file_io.h"
#include "report/test_data.h"

namespace stark::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::data_dir;
using testing::load_test_input;
using testing::scratch;
using testing::validate_json;

const fs::path kSarifSchema = data_dir() / "sarif-schema-2.1.0.json";

fs::path write(const std::string& name, const json& j) {
  fs::path file = scratch(name) / "report.sarif";
  EXPECT_TRUE(write_json_file(file, j));
  return file;
}

TEST(Sarif, ValidatesAgainstTheSarif210Schema) {
  auto log = render_sarif(load_test_input(), {"0.1.0"});
  auto v = validate_json(kSarifSchema, write("sarif_valid", log));
  EXPECT_EQ(v.status.code, 0) << v.output;
}

TEST(Sarif, TheSchemaCatchesBrokenLogs) {
  // The same validator must reject what code scanning would reject, or the test above proves nothing.
  auto log = render_sarif(load_test_input(), {"0.1.0"});
  auto no_version = log;
  no_version.erase("version");
  EXPECT_EQ(validate_json(kSarifSchema, write("sarif_no_version", no_version)).status.code, 1);
  auto bad_level = log;
  bad_level["runs"][0]["results"][0]["level"] = "info";
  auto v = validate_json(kSarifSchema, write("sarif_bad_level", bad_level));
  EXPECT_EQ(v.status.code, 1);
  EXPECT_NE(v.output.find("runs/0/results/0/level"), std::string::npos) << v.output;
  auto no_replacements = log;
  no_replacements["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0]["replacements"] = json::array();
  EXPECT_EQ(validate_json(kSarifSchema, write("sarif_empty_fix", no_replacements)).status.code, 1);
}

TEST(Sarif, OneResultPerImprovedKernelAtItsLocation) {
  auto log = render_sarif(load_test_input(), {"0.1.0"});
  const auto& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "STARK");
  EXPECT_EQ(run["tool"]["driver"]["rules"][0]["id"], kSarifRuleId);
  EXPECT_EQ(run["automationDetails"]["id"], "stark/result/");  // the result directory's name
  EXPECT_EQ(run["originalUriBaseIds"]["SRCROOT"]["uri"], "file://" + (data_dir() / "project").string() + "/");
  ASSERT_EQ(run["results"].size(), 3u);
  std::vector<std::string> names;
  for (const auto& r : run["results"]) names.push_back(r["locations"][0]["logicalLocations"][0]["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"saxpy", "row_softmax", "transpose"}));
  const auto& saxpy = run["results"][0];
  EXPECT_EQ(saxpy["level"], "note");
  const auto& where = saxpy["locations"][0]["physicalLocation"];
  EXPECT_EQ(where["artifactLocation"]["uri"], "src/ops.cu");
  EXPECT_EQ(where["artifactLocation"]["uriBaseId"], "SRCROOT");
  EXPECT_EQ(where["region"], (json{{"startLine", 4}, {"startColumn", 1}, {"endLine", 8}, {"endColumn", 2}}));
  std::string text = saxpy["message"]["text"];
  EXPECT_EQ(text.rfind("saxpy runs 1.84× faster with a verified variant (412 µs → 224 µs on NVIDIA H200", 0), 0u)
      << text;
  EXPECT_NE(text.find("Could not run: memcheck, racecheck"), std::string::npos);
  EXPECT_NE(text.find("Assumes: __restrict__ added to x and y"), std::string::npos);
  EXPECT_NE(run["results"][1]["message"]["text"].get<std::string>().find("worth a second look"), std::string::npos);
}

/// Applies one SARIF fix (line/column regions, code-point columns) to a text.
std::string apply_fix(std::string text, const json& replacements) {
  auto offset = [&](int line, int column) {
    size_t at = 0;
    for (int l = 1; l < line; ++l) at = text.find('\n', at) + 1;
    for (int c = 1; c < column; ++c) {
      ++at;
      while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
    }
    return at;
  };
  std::vector<json> sorted(replacements.begin(), replacements.end());
  std::sort(sorted.begin(), sorted.end(), [](const json& a, const json& b) {
    return std::make_pair(a["deletedRegion"]["startLine"].get<int>(), a["deletedRegion"]["startColumn"].get<int>()) >
           std::make_pair(b["deletedRegion"]["startLine"].get<int>(), b["deletedRegion"]["startColumn"].get<int>());
  });
  for (const auto& r : sorted) {
    const auto& d = r["deletedRegion"];
    size_t begin = offset(d["startLine"], d["startColumn"]), end = offset(d["endLine"], d["endColumn"]);
    text.replace(begin, end - begin, r["insertedContent"]["text"].get<std::string>());
  }
  return text;
}

TEST(Sarif, EachFixRewritesTheSourceExactlyAsTheDiffDoes) {
  auto in = load_test_input();
  auto log = render_sarif(in, {"0.1.0"});
  for (size_t i = 0; i < 3; ++i) {
    const auto& kr = in.kernels[i];
    const auto& fix = log["runs"][0]["results"][i]["fixes"][0];
    ASSERT_EQ(fix["artifactChanges"].size(), 1u);
    std::string file = fix["artifactChanges"][0]["artifactLocation"]["uri"];
    auto original = read_file(in.source_root / file);
    ASSERT_TRUE(original);
    std::string fixed = apply_fix(*original, fix["artifactChanges"][0]["replacements"]);
    std::string expected = *original;
    const auto& e = kr.change->edits.at(0);
    expected.replace(e.range.begin, e.range.end - e.range.begin, e.replacement);
    EXPECT_EQ(fixed, expected) << kr.result.id;
    EXPECT_NE(fix["description"]["text"].get<std::string>().find("launch change not in this diff"), std::string::npos);
  }
}

TEST(Sarif, AnImprovedKernelWithoutLocationBecomesANotification) {
  auto in = load_test_input();
  in.kernels[0].location.reset();
  auto log = render_sarif(in, {"0.1.0"});
  EXPECT_EQ(log["runs"][0]["results"].size(), 2u);
  const auto& notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"];
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0]["message"]["text"],
            "improved kernel 'src/ops.cu:saxpy' has no location in the manifest; not reported");
  auto v = validate_json(kSarifSchema, write("sarif_notification", log));
  EXPECT_EQ(v.status.code, 0) << v.output;
}

}  // namespace
}  // namespace stark::report
