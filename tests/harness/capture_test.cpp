// stark capture on a real GPU: a CUDA program (project/capture_app.cu) runs
// twice at once under the capture library; the store must hold what it
// launched, refuse what cannot be replayed faithfully, and the original
// kernels must reproduce every recorded launch.
#include <vector>
#include <string>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/file_io.h"
#include "core/text.h"
#include "gpu_project.h"
#include "harness/capture/capture_runner.h"
#include "harness/store/capture_store.h"

namespace stark::harness::testing {
namespace {

namespace fs = std::filesystem;

TEST(Capture, RecordsRealLaunchesAndReplaysThem) {
  if (auto why = no_gpu_reason(); !why.empty()) GTEST_SKIP() << "no GPU here: " << why;
  setenv("STARK_CAPTURE_LIBRARY", STARK_CAPTURE_LIBRARY_PATH, 1);
  fs::path work = fs::path(STARK_BINARY_DIR) / "tests/harness/work-capture";
  GpuProject project = GpuProject::create(work);

  std::vector<std::string> notes, warnings, errors;
  Printer printer{[&](const std::string& s) { notes.push_back(s); },
                  [&](const std::string& s) { warnings.push_back(s); },
                  [&](const std::string& s) { errors.push_back(s); }};
  CaptureOptions o;
  o.store = work / "captures";
  o.cache_dir = work / "cache";
  o.nvcc = STARK_NVCC;
  o.fresh = true;
  // Two processes at once write one store (as under ctest -j).
  std::string app = STARK_CAPTURE_APP;
  o.command = {"sh", "-c", app + " & " + app + " & wait"};
  int rc = run_capture(project.manifest, o, printer);
  std::string all =
      "notes: " + join(notes, "\n") + "\nwarnings: " + join(warnings, "\n") + "\nerrors: " + join(errors, "\n");
  ASSERT_EQ(rc, 0) << all;

  auto store = CaptureStore::open(o.store, false);
  ASSERT_TRUE(store);
  auto index = store->read_index();
  ASSERT_TRUE(index) << index.error().message;
  EXPECT_EQ(index->processes.size(), 2u) << all;
  for (const auto& p : index->processes) EXPECT_EQ(p.status, "ok");

  auto count = [&](const std::string& kernel) { return index->for_kernel("kernels.cu:" + kernel).size(); };
  EXPECT_EQ(count("scale"), 3u) << all;  // three shapes (one after a device reset); the repeated launch is one
  EXPECT_EQ(count("saxpy"), 1u) << all;  // the API launch; the host-mapped one refused
  EXPECT_EQ(count("add_bias"), 1u) << all;
  EXPECT_EQ(count("block_sum"), 1u) << all;  // the graph-captured launch refused
  EXPECT_EQ(count("matmul"), 1u) << all;
  EXPECT_EQ(count("negate"), 3u) << all;  // float on device memory, float on managed memory, double
  EXPECT_EQ(count("fill_span"), 0u) << all;
  EXPECT_EQ(count("never_launched"), 0u) << all;

  std::set<std::string> mangled, memories;
  for (const auto* c : index->for_kernel("kernels.cu:negate")) {
    mangled.insert(c->mangled);
    for (const auto& b : c->buffers) memories.insert(b.memory);
  }
  EXPECT_EQ(mangled, (std::set<std::string>{"_Z6negateIfEviPKT_PS0_", "_Z6negateIdEviPKT_PS0_"}));
  EXPECT_TRUE(memories.count("managed"));
  for (const auto& r : index->refusals) all += "\nrefused " + r.kernel + ": " + r.reason;
  ASSERT_FALSE(index->for_kernel("kernels.cu:add_bias").empty()) << all;
  const Capture* bias = index->for_kernel("kernels.cu:add_bias").front();
  ASSERT_EQ(bias->globals.size(), 1u) << all;
  EXPECT_EQ(bias->globals[0].name, "c_bias");
  auto value = store->get_blob(bias->globals[0].before);
  ASSERT_TRUE(value);
  EXPECT_EQ(value->size(), 16u);
  EXPECT_EQ(reinterpret_cast<const float*>(value->data())[2], 2.0f);

  auto refused = [&](const std::string& kernel, const std::string& words) {
    for (const auto& r : index->refusals)
      if (r.kernel == kernel && r.reason.find(words) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(refused("kernels.cu:saxpy", "host memory mapped")) << all;
  EXPECT_TRUE(refused("kernels.cu:block_sum", "captured into a CUDA graph")) << all;
  EXPECT_TRUE(refused("kernels.cu:fill_span", "inside structs")) << all;
  EXPECT_TRUE(refused("*", "CUDA graphs")) << all;
  bool hint = false;
  for (const auto& w : warnings) hint |= w.find("kernels.cu:never_launched: no launch captured") != std::string::npos;
  EXPECT_TRUE(hint) << all;

  // The original kernels reproduce every recorded launch (module variables included).
  GpuEvaluatorOptions eo = project.options("default");
  eo.store = o.store;
  eo.sanitize = GpuEvaluatorOptions::Sanitize::Never;
  GpuEvaluator ev(project.manifest, eo);
  for (const char* name : {"scale", "saxpy", "add_bias", "block_sum", "matmul", "negate"}) {
    const Kernel* k = project.manifest.find_kernel(std::string("kernels.cu:") + name);
    std::string text = *read_file(project.root / "kernels.cu");
    Variant v;
    v.kernel = k->id;
    v.source = text.substr(k->range.begin, k->range.end - k->range.begin);
    Evaluation e = ev.evaluate(*k, v);
    EXPECT_EQ(e.verdict, Verdict::Accepted) << name << ": " << e.reason;
  }
}

TEST(Capture, WithoutADeviceStageCopiesStraightToTheHost) {
  // stark capture --device-stage 0: every snapshot takes the host path, and
  // the same launches are recorded (the device reset included).
  if (auto why = no_gpu_reason(); !why.empty()) GTEST_SKIP() << "no GPU here: " << why;
  setenv("STARK_CAPTURE_LIBRARY", STARK_CAPTURE_LIBRARY_PATH, 1);
  fs::path work = fs::path(STARK_BINARY_DIR) / "tests/harness/work-capture-no-stage";
  GpuProject project = GpuProject::create(work);
  std::vector<std::string> lines;
  auto keep = [&](const std::string& s) { lines.push_back(s); };
  CaptureOptions o;
  o.store = work / "captures";
  o.cache_dir = work / "cache";
  o.nvcc = STARK_NVCC;
  o.fresh = true;
  o.device_stage = 0;
  o.command = {STARK_CAPTURE_APP};
  ASSERT_EQ(run_capture(project.manifest, o, Printer{keep, keep, keep}), 0) << join(lines, "\n");
  auto store = CaptureStore::open(o.store, false);
  ASSERT_TRUE(store);
  auto index = store->read_index();
  ASSERT_TRUE(index) << index.error().message;
  EXPECT_EQ(index->for_kernel("kernels.cu:scale").size(), 3u) << join(lines, "\n");
  EXPECT_EQ(index->for_kernel("kernels.cu:negate").size(), 3u) << join(lines, "\n");

  GpuEvaluatorOptions eo = project.options("default");
  eo.store = o.store;
  eo.sanitize = GpuEvaluatorOptions::Sanitize::Never;
  GpuEvaluator ev(project.manifest, eo);
  const Kernel* k = project.manifest.find_kernel("kernels.cu:scale");
  ASSERT_NE(k, nullptr);
  std::string text = *read_file(project.root / "kernels.cu");
  Evaluation e = ev.evaluate(*k, Variant{k->id, text.substr(k->range.begin, k->range.end - k->range.begin), {}});
  EXPECT_EQ(e.verdict, Verdict::Accepted) << e.reason;
}

}  // namespace
}  // namespace stark::harness::testing
