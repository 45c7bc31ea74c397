#include "core/manifest.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "core/file_io.h"
#include "tests/support/temp_dir.h"

namespace stark {
namespace {

Manifest sample() {
  Manifest m;
  m.source_root = "/abs/project";
  m.build_dir = "/abs/project/build";
  m.files["src/ops.cu"] = {"xxh64:0123456789abcdef"};
  Kernel k;
  k.id = "src/ops.cu:ns::saxpy";
  k.name = "saxpy";
  k.qualified_name = "ns::saxpy";
  k.file = "src/ops.cu";
  k.line = 12;
  k.column = 1;
  k.range = {310, 655};
  k.body = {402, 655};
  k.params = {{"n", "int", ParamKind::Scalar, "", false, false, 4, 4, {}},
              {"x", "const float *__restrict", ParamKind::Pointer, "float", true, true, 8, 8, {}}};
  k.instantiations = {{"_ZN2ns5saxpyEiPKf", "", k.params}};
  k.options.budget = 30;
  k.compile = CompileCommand{"/abs/project/build", "/abs/project/src/ops.cu", {"nvcc", "-c"}, "ops", {"90"}};
  Launch l;
  l.file = "src/ops.cu";
  l.line = 40;
  l.instantiation = "_ZN2ns5saxpyEiPKf";
  l.grid = "(n + 255) / 256";
  l.block = "256";
  l.args = {"n", "x"};
  l.config_range = {900, 921};
  l.grid_range = ByteRange{903, 918};
  l.caller = "ns::launch_saxpy";
  k.launches = {l};
  k.fingerprint = "xxh64:00112233445566aa";
  m.kernels = {k};
  m.diagnostics = {{"src/bad.cu", 3, 5, Severity::Error, "unknown option"}};
  return m;
}

TEST(Manifest, JsonRoundTrip) {
  Manifest m = sample();
  nlohmann::json j = m;
  EXPECT_EQ(j["schema"], "stark.manifest/1");
  EXPECT_TRUE(j["kernels"][0]["launches"][0]["shmem"].is_null());
  EXPECT_EQ(j["kernels"][0]["params"][1]["restrict"], true);
  EXPECT_FALSE(j["kernels"][0]["params"][0].contains("pointee"));
  EXPECT_EQ(j.get<Manifest>(), m);
}

TEST(Manifest, LoadRejectsForeignFiles) {
  stark::testing::TempDir tmp;
  const auto& dir = tmp.path();
  ASSERT_TRUE(write_json_file(dir / "other.json", {{"schema", "other/1"}}));
  auto bad = load_manifest((dir / "other.json").string());
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("not a STARK manifest"), std::string::npos);

  ASSERT_TRUE(write_file_atomic(dir / "broken.json", "{\"schema\": "));
  EXPECT_FALSE(load_manifest((dir / "broken.json").string()));

  ASSERT_TRUE(write_json_file(dir / "good.json", nlohmann::json(sample())));
  auto good = load_manifest((dir / "good.json").string());
  ASSERT_TRUE(good) << good.error().message;
  EXPECT_EQ(*good, sample());
}

TEST(Diagnostic, Format) {
  EXPECT_EQ((Diagnostic{"a.cu", 3, 5, Severity::Error, "bad"}).format(), "a.cu:3:5: error: bad");
  EXPECT_EQ((Diagnostic{"", 0, 0, Severity::Warning, "hmm"}).format(), "warning: hmm");
}

}  // namespace
}  // namespace stark
