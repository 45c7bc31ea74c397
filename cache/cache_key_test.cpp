#include "cache/cache_key.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <set>

namespace stark {
namespace {

CacheKeyInputs sample() {
  CacheKeyInputs in;
  in.fingerprint = "xxh64:0011223344556677";
  in.compile = {"dir=${BUILD}", "file=${SOURCE}/src/ops.cu", "nvcc", "-O3", "-c", "${SOURCE}/src/ops.cu"};
  in.toolkit = "xxh64:aaaaaaaaaaaaaaaa";
  in.gpu = {"NVIDIA H200", "90", "580.95", "13.0", 132, 4800};
  in.backend = {"builtin", "expert-v1"};
  in.budget = 30;
  in.seed = 1;
  in.parallel = 4;
  in.rtol = 1e-5;
  in.input_shapes = {"_Z5saxpy xxh64:1", "_Z5saxpy xxh64:2"};
  in.launch_sites = {"chevron _Z5saxpy <<<(n + 255) / 256, 256, , >>>(n, x) in run"};
  in.stark_version = "0.1.0";
  return in;
}

TEST(CacheKey, EveryInputChangesTheKey) {
  const std::string base = cache_key(sample());
  EXPECT_EQ(base.rfind("xxh64:", 0), 0u);
  EXPECT_EQ(cache_key(sample()), base);  // deterministic
  std::vector<std::function<void(CacheKeyInputs&)>> edits = {
      [](auto& k) { k.fingerprint = "xxh64:0011223344556678"; },
      [](auto& k) { k.compile.push_back("-DFAST=1"); },
      [](auto& k) { k.toolkit = "xxh64:bbbbbbbbbbbbbbbb"; },
      [](auto& k) { k.gpu.name = "NVIDIA A100"; },
      [](auto& k) { k.gpu.sm = "80"; },
      [](auto& k) { k.gpu.driver = "590.1"; },
      [](auto& k) { k.gpu.cuda = "13.1"; },
      [](auto& k) { k.backend.name = "anthropic"; },
      [](auto& k) { k.backend.model = "other"; },
      [](auto& k) { k.backend_detail = "http://localhost:8000/v1"; },
      [](auto& k) { k.budget = 31; },
      [](auto& k) { k.seed = 2; },
      [](auto& k) { k.parallel = 8; },
      [](auto& k) { k.search = R"({"team":{"backend":"openai","models":{"plan":"a","code":"b"}}})"; },
      [](auto& k) { k.rtol = 1e-4; },
      [](auto& k) { k.atol = 1e-6; },
      [](auto& k) { k.input_shapes.pop_back(); },
      [](auto& k) { k.launch_sites[0] += "x"; },
      [](auto& k) { k.stark_version = "0.2.0"; },
  };
  std::set<std::string> keys{base};
  for (size_t i = 0; i < edits.size(); ++i) {
    CacheKeyInputs in = sample();
    edits[i](in);
    EXPECT_TRUE(keys.insert(cache_key(in)).second) << "edit " << i << " did not change the key";
  }
}

TEST(CacheKey, MeasuredFiguresOfTheGpuDoNotCount) {
  CacheKeyInputs a = sample(), b = sample();
  b.gpu.mem_bandwidth_gbs = 4250;
  b.gpu.sm_count = 0;
  EXPECT_EQ(cache_key(a), cache_key(b));
}

TEST(CacheKey, CommandsArePortableAcrossCheckouts) {
  CompileCommand a{"/ci/1/proj/build",
                   "/ci/1/proj/src/ops.cu",
                   {"/usr/local/cuda/bin/nvcc", "-I/ci/1/proj/include", "-o", "/ci/1/proj/build/ops.o", "-c",
                    "/ci/1/proj/src/ops.cu"},
                   "ops",
                   {"90"}};
  CompileCommand b = a;
  for (std::string* s : {&b.directory, &b.file}) s->replace(0, 10, "/ci/22/proj");
  for (auto& s : b.arguments)
    if (s.find("/ci/1/") != std::string::npos) s.replace(s.find("/ci/1/"), 6, "/ci/22/");
  auto pa = portable_command(a, "/ci/1/proj", "/ci/1/proj/build");
  auto pb = portable_command(b, "/ci/22/proj", "/ci/22/proj/build");
  EXPECT_EQ(pa, pb);
  EXPECT_EQ(pa[0], "dir=${BUILD}");
  EXPECT_EQ(pa[3], "-I${SOURCE}/include");
  EXPECT_EQ(pa[5], "${BUILD}/ops.o");
  b.arguments.insert(b.arguments.begin() + 1, "-DX=1");
  EXPECT_NE(portable_command(b, "/ci/22/proj", "/ci/22/proj/build"), pa);
}

TEST(CacheKey, LaunchSitesLeaveOutTheirPosition) {
  Launch l;
  l.file = "src/a.cu";
  l.line = 40;
  l.instantiation = "_Z1kiPf";
  l.grid = "(n + 255) / 256";
  l.block = "256";
  l.args = {"n", "y"};
  l.caller = "run";
  Launch moved = l;
  moved.line = 41;
  moved.config_range = {100, 120};
  EXPECT_EQ(launch_site_key(l), launch_site_key(moved));
  moved.block = "128";
  EXPECT_NE(launch_site_key(l), launch_site_key(moved));
}

TEST(CacheKey, ToolkitIdentityIsTheCompilersContent) {
  CompileCommand c{"/", "/x.cu", {"/bin/sh", "-c"}, "", {}};
  std::string sh = toolkit_identity(c);
  EXPECT_EQ(sh.rfind("xxh64:", 0), 0u);
  c.arguments[0] = "sh";  // found on PATH
  EXPECT_EQ(toolkit_identity(c).rfind("xxh64:", 0), 0u);
  c.arguments[0] = "/no/such/nvcc";
  EXPECT_EQ(toolkit_identity(c), "unknown:/no/such/nvcc");
}

}  // namespace
}  // namespace stark
