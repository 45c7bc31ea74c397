// Benchmark: evaluations per minute with 1, 2, ... GPUs on the same candidate
// set (scale-out). For every GPU count asked for, one GpuEvaluator
// with that many local workers (one per GPU, pinned with CUDA_VISIBLE_DEVICES)
// judges the same candidates from 4 client threads per GPU. The compile cache
// is warmed first, so the figures measure the GPU side (replay, checks,
// timing), which is what more GPUs add. Prints figures and the scaling
// against the first count; asserts nothing.
//
//   bench_multi_gpu [--gpus 1,2] [--candidates N] [--elements N] [--executor local|slurm]
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/text.h"
#include "harness/common/cuda_driver.h"
#include "harness/evaluator/gpu_evaluator.h"
#include "harness/testing/evaluator_options.h"

using namespace stark;
using namespace stark::harness;

int main(int argc, char** argv) {
  std::vector<int> counts = {1, 2};
  int candidates = 24;
  long elements = 1 << 24;  // 64 MiB per buffer: the GPU side dominates
  ExecutorKind executor = ExecutorKind::Local;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--gpus")) {
      counts.clear();
      for (std::string_view c : split(argv[++i], ',')) counts.push_back(std::atoi(std::string(c).c_str()));
    } else if (!std::strcmp(argv[i], "--candidates")) candidates = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--elements")) elements = std::atol(argv[++i]);
    else if (!std::strcmp(argv[i], "--executor")) {
      auto kind = parse_executor_kind(argv[++i]);
      if (!kind) {
        fmt::print("bench_multi_gpu: {}\n", kind.error().message);
        return 2;
      }
      executor = *kind;
    }
  }
  int visible = 0;
  if (auto cu = cuda_driver()) (*cu)->cuDeviceGetCount(&visible);
  for (int c : counts)
    if (c < 1 || (executor == ExecutorKind::Local && c > visible)) {
      fmt::print("bench_multi_gpu: {} GPUs asked for, {} visible here: cannot measure that count\n", c, visible);
      return 1;
    }

  testing::TestProject p("bench_multi_gpu");
  Kernel& k = testing::add_annotated_axpb(p, fmt::format("n={}, a=1.5, b=0.5", elements));
  std::vector<Variant> variants = testing::axpb_candidates(k, candidates);

  auto options = [&](int gpus) {
    GpuEvaluatorOptions o = testing::evaluator_options(p);
    o.sanitize = GpuEvaluatorOptions::Sanitize::Never;
    o.executor = executor;
    o.devices.clear();
    if (executor == ExecutorKind::Local)
      for (int d = 0; d < gpus; ++d) o.devices.push_back(d);
    else o.workers = gpus;
    return o;
  };
  auto run = [&](GpuEvaluator& ev, int threads) {
    std::vector<Evaluation> results(variants.size());
    std::atomic<size_t> next{0};
    std::vector<std::thread> pool;
    auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&] {
        for (size_t i; (i = next++) < variants.size();) results[i] = ev.evaluate(p.manifest().kernels[0], variants[i]);
      });
    for (auto& t : pool) t.join();
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int accepted = 0, other = 0;
    for (const auto& e : results) (e.verdict == Verdict::Accepted ? accepted : other)++;
    return std::make_tuple(seconds, accepted, other, results);
  };

  {  // Warm the compile cache (and the capture made from the annotation): not timed.
    GpuEvaluator ev(p.manifest(), options(1));
    auto gpu = ev.gpu();
    if (!gpu) {
      fmt::print("bench_multi_gpu: no GPU: {}\n", ev.no_gpu_reason());
      return 1;
    }
    fmt::print(
        "GPU: {} (sm_{}), {} visible, {} CPU threads, {} candidates of {} elements, executor {}; "
        "compile cache warm, compute-sanitizer off\n",
        gpu->name, gpu->sm, visible, std::thread::hardware_concurrency(), candidates, elements, to_string(executor));
    run(ev, 4);
  }
  double first = 0;
  for (int gpus : counts) {
    GpuEvaluator ev(p.manifest(), options(gpus));
    if (!ev.gpu()) {
      fmt::print("bench_multi_gpu: {} GPUs: no GPU: {}\n", gpus, ev.no_gpu_reason());
      return 1;
    }
    auto [seconds, accepted, other, results] = run(ev, 4 * gpus);
    double per_minute = 60.0 * static_cast<double>(variants.size()) / seconds;
    if (first == 0) first = per_minute;
    std::string served;
    for (const auto& s : ev.workers().stats()) served += fmt::format("{}{}", served.empty() ? "" : "/", s.served);
    fmt::print(
        "{} GPU{}: {} evaluations in {:.1f} s = {:.0f} evaluations/minute, {:.2f}x the first count "
        "(accepted {}, other {}; per worker {})\n",
        gpus, gpus == 1 ? "" : "s", variants.size(), seconds, per_minute, per_minute / first, accepted, other, served);
    for (const auto& e : results)
      if (e.verdict == Verdict::Error) {
        fmt::print("  first error: {}\n", e.reason);
        break;
      }
  }
  return 0;
}
