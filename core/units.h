// Figures for people: shares, bandwidths and FLOP rates written the same way
// in reports, prompts and progress lines.
#ifndef STARK_CORE_UNITS_H
#define STARK_CORE_UNITS_H

#include <string>

namespace stark {

/// Three significant digits without exponent: 412, 41.2, 4.12, 0.412.
std::string sig3(double v);

/// A share of a whole as a percentage: 0.62 -> "62%", 0.0042 -> "0.4%".
std::string format_share(double share);

/// GB/s as "3.92 TB/s" or "812 GB/s".
std::string format_bandwidth(double gbs);

/// GFLOP/s as "41.2 TFLOP/s" or "310 GFLOP/s".
std::string format_flop_rate(double gflops);

}  // namespace stark

#endif  // STARK_CORE_UNITS_H
