// Statistics of repeated kernel timings: robust summaries (median and the
// 10th/90th percentiles) and the rule that decides when to stop repeating.
#ifndef STARK_HARNESS_WORKER_TIMING_STATS_H
#define STARK_HARNESS_WORKER_TIMING_STATS_H

#include <vector>

#include "core/evaluation.h"

namespace stark::harness {

/// Percentile by linear interpolation (p in [0, 1]) of unsorted samples.
double percentile(std::vector<double> samples, double p);

/// Median, p10, p90 and count.
Timing summarize(const std::vector<double>& samples);

/// Standard deviation over mean (0 for fewer than two samples).
double coefficient_of_variation(const std::vector<double>& samples);

/// When to stop timing: at least min_runs, then until the medians of both
/// series move by less than `stable` (relative) over the last batch, or the
/// run count or time budget is spent.
struct StopRule {
  int min_runs = 15;
  int max_runs = 300;
  int batch = 5;
  double stable = 0.005;
  double max_seconds = 3.0;

  /// `previous` holds the medians at the last check; updated in place.
  bool done(const std::vector<double>& a, const std::vector<double>& b, double elapsed_seconds,
            std::vector<double>& previous) const;
};

}  // namespace stark::harness

#endif  // STARK_HARNESS_WORKER_TIMING_STATS_H
