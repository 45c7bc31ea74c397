#include "core/units.h"

#include <cmath>

#include <fmt/format.h>

namespace stark {

std::string sig3(double v) {
  double a = std::fabs(v);
  int decimals = a >= 100 || a == 0 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return fmt::format("{:.{}f}", v, decimals);
}

std::string format_share(double share) {
  double pct = share * 100;
  return pct >= 10 ? fmt::format("{:.0f}%", pct) : fmt::format("{:.1f}%", pct);
}

std::string format_bandwidth(double gbs) {
  if (gbs >= 1000) return sig3(gbs / 1000) + " TB/s";
  return sig3(gbs) + " GB/s";
}

std::string format_flop_rate(double gflops) {
  if (gflops >= 1000) return sig3(gflops / 1000) + " TFLOP/s";
  return sig3(gflops) + " GFLOP/s";
}

}  // namespace stark
