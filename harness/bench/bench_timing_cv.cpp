// Benchmark: how stable the harness's timings are. The original kernel is
// evaluated against itself repeatedly (fresh evaluations, same captures);
// prints each run's medians and spread, the coefficient of variation of the
// medians across runs, and the speedup's deviation from 1.0. One kernel is
// over 20 microseconds, one far below. Prints figures; asserts nothing.
//
//   bench_timing_cv [--repeats N]
#include <cmath>
#include <algorithm>
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "harness/evaluator/gpu_evaluator.h"
#include "harness/testing/evaluator_options.h"
#include "harness/worker/timing_stats.h"

using namespace stark;
using namespace stark::harness;

int main(int argc, char** argv) {
  int repeats = 10;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--repeats")) repeats = std::atoi(argv[++i]);
  int status = 0;
  for (auto [label, n] : {std::pair{"large (2^25 floats, 256 MiB moved)", 1 << 25}, {"small (2^16 floats)", 1 << 16}}) {
    testing::TestProject p(std::string("bench_cv_") + std::to_string(n));
    const Kernel& k = testing::add_annotated_scale(p, fmt::format("n={}, a=2.0", n));
    GpuEvaluatorOptions o = testing::evaluator_options(p);
    o.sanitize = GpuEvaluatorOptions::Sanitize::Never;
    o.host_code_check = false;
    GpuEvaluator ev(p.manifest(), o);
    if (!ev.gpu()) {
      fmt::print("bench_timing_cv: no GPU: {}\n", ev.no_gpu_reason());
      return 1;
    }
    Variant same = testing::unchanged_variant(p, k);
    std::vector<double> base, var, speedups;
    fmt::print("{} on {}:\n", label, ev.gpu()->name);
    for (int r = 0; r < repeats; ++r) {
      Evaluation e = ev.evaluate(p.manifest().kernels[0], same);
      if (e.verdict != Verdict::Accepted || e.captures.empty() || !e.captures[0].baseline_us) {
        fmt::print("  run {}: {} {}\n", r + 1, to_string(e.verdict), e.reason);
        status = 1;
        continue;
      }
      const Timing& b = *e.captures[0].baseline_us;
      const Timing& v = *e.captures[0].variant_us;
      base.push_back(b.median);
      var.push_back(v.median);
      speedups.push_back(*e.speedup);
      fmt::print(
          "  run {:2}: original {:9.3f} us (p10 {:.3f}, p90 {:.3f}, n={}), same kernel again {:9.3f} us, "
          "spread (p90-p10)/median {:.2f}%\n",
          r + 1, b.median, b.p10, b.p90, b.n, v.median, 100 * (b.p90 - b.p10) / b.median);
    }
    if (!base.empty()) {
      double worst = 0;
      for (double s : speedups) worst = std::max(worst, std::abs(s - 1.0));
      fmt::print(
          "  => median {:.3f} us; CV of the medians across {} evaluations: {:.3f}% (original), {:.3f}% (again); "
          "largest |speedup - 1| of the kernel against itself: {:.3f}\n",
          percentile(base, 0.5), base.size(), 100 * coefficient_of_variation(base), 100 * coefficient_of_variation(var),
          worst);
    }
  }
  return status;
}
