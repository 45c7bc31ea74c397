// Benchmark: what capturing costs a test suite, and where. Runs COMMAND RUNS
// times in four ways: plainly; with CUDA_MODULE_LOADING=EAGER alone (what the
// capture sets); with the capture library injected but no kernel to record
// (CUPTI's start-up and callbacks); and as `stark capture` with an empty store
// (every new shape snapshotted, compressed and written). Prints the medians
// and their ratios. Prints figures; asserts nothing.
//
//   bench_capture_overhead --manifest M [--runs N] [--store DIR] -- COMMAND...
#include <cstdio>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/file_io.h"
#include "core/manifest.h"
#include "core/process.h"
#include "core/text.h"
#include "harness/capture/capture_plan.h"
#include "harness/capture/capture_runner.h"
#include "harness/evaluator/locate.h"
#include "harness/worker/timing_stats.h"

using namespace stark;
using namespace stark::harness;

int main(int argc, char** argv) {
  std::string manifest_path, store;
  int runs = 3;
  std::vector<std::string> command;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--manifest" && i + 1 < argc) manifest_path = argv[++i];
    else if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--store" && i + 1 < argc) store = argv[++i];
    else if (a == "--") {
      command.assign(argv + i + 1, argv + argc);
      break;
    }
  }
  if (manifest_path.empty() || command.empty()) {
    fmt::print(stderr, "usage: bench_capture_overhead --manifest M [--runs N] [--store DIR] -- COMMAND...\n");
    return 2;
  }
  auto manifest = load_manifest(manifest_path);
  if (!manifest) {
    fmt::print(stderr, "bench_capture_overhead: {}\n", manifest.error().message);
    return 1;
  }
  if (store.empty()) store = (std::filesystem::temp_directory_path() / "stark_bench_capture_store").string();
  auto library = find_capture_library();
  if (!library) {
    fmt::print(stderr, "bench_capture_overhead: {}\n", library.error().message);
    return 1;
  }
  // A plan with no kernel: the library loads, subscribes and sees every launch, records nothing.
  std::filesystem::path idle_store = store + "-idle";
  std::filesystem::remove_all(idle_store);
  std::filesystem::create_directories(idle_store);
  CapturePlan idle;
  idle.store = idle_store.string();
  if (auto ok = write_json_file(idle_store / "plan.json", nlohmann::json(idle)); !ok) {
    fmt::print(stderr, "bench_capture_overhead: {}\n", ok.error().message);
    return 1;
  }
  auto timed_command = [&](std::map<std::string, std::string> env) {
    ProcessOptions o;
    o.env = std::move(env);
    auto start = std::chrono::steady_clock::now();
    auto res = run_process(command, o);
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::pair{t, res && res->status.success() ? 0 : 1};
  };
  std::vector<double> plain, eager, injected, captured;
  // Only the capture's own timing line and errors.
  Printer quiet{[](const std::string& s) {
                  if (s.rfind("timing:", 0) == 0) fmt::print("  {}\n", s);
                },
                [](const std::string&) {}, [](const std::string& s) { fmt::print(stderr, "  error: {}\n", s); }};
  auto show = [](int run, const char* what, double t, int rc) {
    fmt::print("run {}: {:<9} {:.2f} s{}\n", run, what, t, rc ? " (failed)" : "");
  };
  for (int r = 0; r < runs; ++r) {
    auto [t, rc] = timed_command({});
    plain.push_back(t);
    show(r + 1, "plain", t, rc);
    auto [te, rce] = timed_command({{"CUDA_MODULE_LOADING", "EAGER"}});
    eager.push_back(te);
    show(r + 1, "eager", te, rce);
    auto [ti, rci] = timed_command({{"CUDA_MODULE_LOADING", "EAGER"},
                                    {"CUDA_INJECTION64_PATH", library->string()},
                                    {kCapturePlanEnv, (idle_store / "plan.json").string()}});
    injected.push_back(ti);
    show(r + 1, "injected", ti, rci);
    CaptureOptions c;
    c.store = store;
    c.fresh = true;
    c.command = {"sh", "-c", join(command, " ") + " >/dev/null 2>&1"};
    auto start = std::chrono::steady_clock::now();
    int rcc = run_capture(*manifest, c, quiet);
    double tc = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    captured.push_back(tc);
    show(r + 1, "captured", tc, rcc);
  }
  double p = percentile(plain, 0.5), e = percentile(eager, 0.5), i = percentile(injected, 0.5),
         c = percentile(captured, 0.5);
  fmt::print(
      "where the time goes (medians): plain {:.2f} s; eager module loading {:.2f} s ({:.2f}x); capture "
      "library loaded, nothing recorded {:.2f} s ({:.2f}x); capture {:.2f} s\n",
      p, e, e / p, i, i / p, c);
  fmt::print(
      "capture overhead on `{}`: median {:.2f} s plain, {:.2f} s captured (fresh store, module variables "
      "found by compiling each kernel's unit included) = {:.2f}x\n",
      join(command, " "), p, c, c / p);
  return 0;
}
