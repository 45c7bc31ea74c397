// Benchmark: evaluations per minute on this machine's GPU, compile included.
// 64 distinct small candidates of one kernel (elements per thread and block
// size vary, with launch overrides) go through GpuEvaluator from 16 threads
// at once, first with an empty compile cache, then again with it warm.
// Prints figures; asserts nothing.
//
//   bench_eval_throughput [--candidates N] [--threads T]
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <future>
#include <string>
#include <vector>

#include "harness/evaluator/gpu_evaluator.h"
#include "harness/testing/test_project.h"

using namespace stark;
using namespace stark::harness;

int main(int argc, char** argv) {
  int candidates = 64, threads = 16;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--candidates")) candidates = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[++i]);
  }
  testing::TestProject p("bench_throughput");
  Kernel& k = testing::add_annotated_axpb(p, "n=1048576, a=1.5, b=0.5");
  std::vector<Variant> variants = testing::axpb_candidates(k, candidates);

  GpuEvaluatorOptions o;
  o.store = p.root() / "captures";
  o.cache_dir = p.root() / "cache";
  o.nvcc = p.nvcc();
  o.sanitize = GpuEvaluatorOptions::Sanitize::Never;
  o.check_all_archs = false;
  GpuEvaluator ev(p.manifest(), o);
  auto gpu = ev.gpu();
  if (!gpu) {
    fmt::print("bench_eval_throughput: no GPU: {}\n", ev.no_gpu_reason());
    return 1;
  }
  fmt::print(
      "GPU: {} (sm_{}), {} CPU threads, {} candidates, {} client threads; compute-sanitizer off, host-code check on\n",
      gpu->name, gpu->sm, std::thread::hardware_concurrency(), candidates, threads);

  auto run = [&](const char* label) {
    CompileStats before = ev.compiler().stats();
    auto start = std::chrono::steady_clock::now();
    std::vector<Evaluation> results(variants.size());
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&] {
        for (size_t i; (i = next++) < variants.size();) results[i] = ev.evaluate(p.manifest().kernels[0], variants[i]);
      });
    for (auto& t : pool) t.join();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int accepted = 0, rejected = 0, errors = 0;
    std::vector<double> speedups;
    for (const auto& e : results) {
      if (e.verdict == Verdict::Accepted) ++accepted;
      else if (e.verdict == Verdict::Rejected) ++rejected;
      else ++errors;
      if (e.speedup) speedups.push_back(*e.speedup);
    }
    std::sort(speedups.begin(), speedups.end());
    fmt::print(
        "{}: {} evaluations in {:.1f} s = {:.0f} evaluations/minute (accepted {}, rejected {}, errors {}; "
        "speedup min {:.2f} median {:.2f} max {:.2f})\n",
        label, results.size(), seconds, 60.0 * results.size() / seconds, accepted, rejected, errors,
        speedups.empty() ? 0 : speedups.front(), speedups.empty() ? 0 : speedups[speedups.size() / 2],
        speedups.empty() ? 0 : speedups.back());
    // Where the time went: nvcc runs per mode, and how many ran at once on average.
    CompileStats after = ev.compiler().stats();
    const char* modes[] = {"cubin", "object (host-code check)", "dependencies", "ptx"};
    for (int m = 0; m < 4; ++m) {
      int n = after.runs[m] - before.runs[m];
      double s = after.seconds[m] - before.seconds[m];
      if (n)
        fmt::print("  nvcc {}: {} runs, {:.1f} s in all, {:.2f} s each, {:.1f} at once on average\n", modes[m], n, s,
                   s / n, s / seconds);
    }
    fmt::print("  answered from the compile cache: {}\n", after.cached - before.cached);
    for (const auto& e : results)
      if (e.verdict == Verdict::Error) {
        fmt::print("  first error: {}\n", e.reason);
        break;
      }
  };
  run("cold compile cache");
  run("warm compile cache");
  return 0;
}
