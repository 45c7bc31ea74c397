// Test-only helpers: the hand-written result directory in tests/report/ and
// scratch folders. Included by the report tests, not by the library.
#ifndef STARK_REPORT_TEST_DATA_H
#define STARK_REPORT_TEST_DATA_H

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "core/process.h"
#include "report/report_input.h"
#include "tests/support/temp_dir.h"

namespace stark::report::testing {

namespace fs = std::filesystem;

/// tests/report/: result/ (result.json, manifest.json), project/ (sources).
inline fs::path data_dir() { return fs::path(STARK_SOURCE_DIR) / "tests/report"; }

/// An empty folder of its own, inside one TempDir for the whole binary so
/// that the paths can outlive the call and still go when the binary exits.
inline fs::path scratch(const std::string& name) {
  static const stark::testing::TempDir root("report-test");
  fs::path d = root / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// The test result loaded as `stark report` loads it.
inline ReportInput load_test_input() {
  auto in = load_report_input(data_dir() / "result");
  if (!in) ADD_FAILURE() << in.error().message;
  return in ? std::move(*in) : ReportInput{};
}

/// A copy of result/ and project/ that a test may edit.
inline fs::path copy_test_data(const std::string& name) {
  fs::path d = scratch(name);
  fs::copy(data_dir() / "result", d / "result", fs::copy_options::recursive);
  fs::copy(data_dir() / "project", d / "project", fs::copy_options::recursive);
  return d;
}

/// Runs tests/tools/validate_json.py SCHEMA FILE; returns its exit code and output.
inline ProcessResult validate_json(const fs::path& schema, const fs::path& file) {
  auto r = run_process({STARK_PYTHON, (fs::path(STARK_SOURCE_DIR) / "tests/tools/validate_json.py").string(),
                        schema.string(), file.string()});
  if (!r) ADD_FAILURE() << r.error().message;
  return r ? *r : ProcessResult{};
}

/// The kernel of `in` with this short name.
inline const KernelReport& kernel_named(const ReportInput& in, const std::string& name) {
  for (const auto& k : in.kernels)
    if (short_name(k.result.id) == name) return k;
  ADD_FAILURE() << "no kernel " << name;
  static const KernelReport none{};
  return none;
}

}  // namespace stark::report::testing

#endif  // STARK_REPORT_TEST_DATA_H
