#include "harness/worker/timing_stats.h"

#include <vector>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace stark::harness {

double percentile(std::vector<double> s, double p) {
  if (s.empty()) return 0;
  std::sort(s.begin(), s.end());
  double pos = p * static_cast<double>(s.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, s.size() - 1);
  double frac = pos - static_cast<double>(lo);
  return s[lo] + (s[hi] - s[lo]) * frac;
}

Timing summarize(const std::vector<double>& samples) {
  Timing t;
  t.n = static_cast<int>(samples.size());
  t.median = percentile(samples, 0.5);
  t.p10 = percentile(samples, 0.1);
  t.p90 = percentile(samples, 0.9);
  return t;
}

double coefficient_of_variation(const std::vector<double>& s) {
  if (s.size() < 2) return 0;
  double mean = std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
  double var = 0;
  for (double v : s) var += (v - mean) * (v - mean);
  var /= static_cast<double>(s.size() - 1);
  return mean > 0 ? std::sqrt(var) / mean : 0;
}

bool StopRule::done(const std::vector<double>& a, const std::vector<double>& b, double elapsed,
                    std::vector<double>& previous) const {
  int n = static_cast<int>(std::min(a.size(), b.size()));
  if (n >= max_runs || (elapsed >= max_seconds && n >= 3)) return true;
  if (n < min_runs || n % batch != 0) return false;
  std::vector<double> now = {percentile(a, 0.5), percentile(b, 0.5)};
  bool stable = previous.size() == now.size();
  for (size_t i = 0; stable && i < now.size(); ++i)
    stable = now[i] > 0 && std::fabs(now[i] - previous[i]) / now[i] < this->stable;
  previous = now;
  return stable;
}

}  // namespace stark::harness
