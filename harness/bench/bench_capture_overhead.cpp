// Benchmark: what capturing costs a test suite. Runs COMMAND plainly, then
// under the capture library with an empty store (every new shape snapshotted,
// compressed and written), RUNS times each, and prints the medians and their
// ratio. Prints figures; asserts nothing.
//
//   bench_capture_overhead --manifest M [--runs N] [--store DIR] -- COMMAND...
#include <cstdio>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/manifest.h"
#include "core/text.h"
#include "harness/capture/capture_runner.h"
#include "harness/common/subprocess.h"
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
  auto seconds_of = [](auto&& f) {
    auto start = std::chrono::steady_clock::now();
    int rc = f();
    return std::pair{std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), rc};
  };
  std::vector<double> plain, captured;
  // Only the capture's own timing line and errors.
  Printer quiet{[](const std::string& s) { if (s.rfind("timing:", 0) == 0) fmt::print("  {}\n", s); },
                [](const std::string&) {}, [](const std::string& s) { fmt::print(stderr, "  error: {}\n", s); }};
  for (int r = 0; r < runs; ++r) {
    CommandOptions o;
    o.capture_output = true;
    auto [t, rc] = seconds_of([&] {
      auto res = run_command(command, o);
      return res && res->status.success() ? 0 : 1;
    });
    plain.push_back(t);
    fmt::print("run {}: plain    {:.2f} s{}\n", r + 1, t, rc ? " (command failed)" : "");
    CaptureOptions c;
    c.store = store;
    c.fresh = true;
    c.command = {"sh", "-c", join(command, " ") + " >/dev/null 2>&1"};
    auto [tc, rcc] = seconds_of([&] { return run_capture(*manifest, c, quiet); });
    captured.push_back(tc);
    fmt::print("run {}: captured {:.2f} s{}\n", r + 1, tc, rcc ? " (capture reported a failure)" : "");
  }
  double p = percentile(plain, 0.5), c = percentile(captured, 0.5);
  fmt::print("capture overhead on `{}`: median {:.2f} s plain, {:.2f} s captured (fresh store, module variables "
             "found by compiling each kernel's unit included) = {:.2f}x\n",
             join(command, " "), p, c, c / p);
  return 0;
}
