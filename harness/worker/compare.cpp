#include "harness/worker/compare.h"

#include <string>
#include <optional>
#include <cstdint>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>

namespace stark::harness {

namespace {

// Splits [0, n) into chunks run on up to 16 threads for large buffers.
template <typename F>
void parallel_chunks(uint64_t n, F&& body) {
  unsigned threads = n < (uint64_t{4} << 20) ? 1 : std::min(16u, std::max(1u, std::thread::hardware_concurrency()));
  if (threads == 1) {
    body(0, 0, n);
    return;
  }
  std::vector<std::thread> pool;
  uint64_t step = (n + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t) {
    uint64_t b = t * step, e = std::min(n, b + step);
    if (b >= e) break;
    pool.emplace_back([&body, t, b, e] { body(t, b, e); });
  }
  for (auto& th : pool) th.join();
}

bool lane_is_poison(const unsigned char* p, int size, uint8_t poison) {
  for (int i = 0; i < size; ++i)
    if (p[i] != poison) return false;
  return true;
}

std::string format_value(double v) {
  if (std::isnan(v)) return "nan";
  return fmt::format("{:.7g}", v);
}

}  // namespace

std::string BufferComparison::describe(std::string_view name) const {
  if (ok) return fmt::format("{}: {} elements match (max rel err {:.3g})", name, elements, max_rel_err);
  std::string s = fmt::format("{}: {} of {} elements differ (first at [{}]: {} expected, got {})", name, mismatches,
                              elements, first, format_value(expected_first), format_value(got_first));
  if (left_poison) s += fmt::format(", {} never written (still holding the poison pattern)", left_poison);
  if (max_rel_err > 0 && std::isfinite(max_rel_err)) s += fmt::format("; max rel err {:.3g}", max_rel_err);
  return s;
}

uint64_t count_changed_bytes(std::string_view before, std::string_view after) {
  uint64_t n = 0;
  size_t len = std::min(before.size(), after.size());
  for (size_t i = 0; i < len; ++i) n += before[i] != after[i];
  return n + (std::max(before.size(), after.size()) - len);
}

namespace {

/// Root mean square of the finite values of a float buffer: the scale a
/// relative error is measured against where values are near zero.
double reference_rms(const unsigned char* e, const DType& dtype, uint64_t lanes) {
  std::vector<double> sums(16, 0.0);
  std::vector<uint64_t> counts(16, 0);
  parallel_chunks(lanes, [&](unsigned t, uint64_t b, uint64_t end) {
    double s = 0;
    uint64_t c = 0;
    for (uint64_t i = b; i < end; ++i) {
      double v = load_lane(e, dtype.kind, i);
      if (std::isfinite(v)) {
        s += v * v;
        ++c;
      }
    }
    sums[t] = s;
    counts[t] = c;
  });
  double s = 0;
  uint64_t c = 0;
  for (int t = 0; t < 16; ++t) {
    s += sums[t];
    c += counts[t];
  }
  return c ? std::sqrt(s / static_cast<double>(c)) : 0;
}

/// What one thread's share of the lanes found.
struct LanesFound {
  uint64_t mismatches = 0, poison = 0;
  double max_abs = 0, max_rel = 0;
  int64_t first = -1;
};

/// Whether float lane values differ beyond the tolerance (NaN must stay NaN,
/// an infinity the same infinity), recording the errors in `found`.
bool float_lane_differs(double ev, double gv, double rms, const Tolerance& tolerance, LanesFound& found) {
  bool bad;
  if (std::isnan(ev)) bad = !std::isnan(gv);
  else if (std::isinf(ev)) bad = gv != ev;
  else if (!std::isfinite(gv)) bad = true;
  else {
    double err = std::fabs(gv - ev);
    double rel = err / std::max({std::fabs(ev), rms, 1e-300});
    found.max_abs = std::max(found.max_abs, err);
    found.max_rel = std::max(found.max_rel, rel);
    bad = err > tolerance.atol + tolerance.rtol * std::max(std::fabs(ev), rms);
  }
  if (bad && std::isfinite(ev) && !std::isfinite(gv)) found.max_rel = INFINITY;
  return bad;
}

}  // namespace

BufferComparison compare_buffer(std::string_view expected, std::string_view got, const DType& dtype,
                                const Tolerance& tolerance, std::optional<uint8_t> poison) {
  BufferComparison r;
  if (expected.size() != got.size()) {
    r.ok = false;
    r.mismatches = 1;
    return r;
  }
  const int lane = dtype.scalar_size();
  const uint64_t lanes = expected.size() / lane;
  const auto* e = reinterpret_cast<const unsigned char*>(expected.data());
  const auto* g = reinterpret_cast<const unsigned char*>(got.data());
  r.elements = lanes;
  const bool floating = dtype.is_float();
  const double rms = floating ? reference_rms(e, dtype, lanes) : 0;

  std::vector<LanesFound> parts(16);
  parallel_chunks(lanes, [&](unsigned t, uint64_t b, uint64_t end) {
    LanesFound& p = parts[t];
    for (uint64_t i = b; i < end; ++i) {
      const unsigned char* ei = e + i * lane;
      const unsigned char* gi = g + i * lane;
      if (std::memcmp(ei, gi, lane) == 0) continue;
      if (floating && !float_lane_differs(load_lane(e, dtype.kind, i), load_lane(g, dtype.kind, i), rms, tolerance, p))
        continue;
      if (p.first < 0) p.first = static_cast<int64_t>(i);
      ++p.mismatches;
      if (poison && lane_is_poison(gi, lane, *poison)) ++p.poison;
    }
  });
  for (const auto& p : parts) {
    r.mismatches += p.mismatches;
    r.left_poison += p.poison;
    r.max_abs_err = std::max(r.max_abs_err, p.max_abs);
    r.max_rel_err = std::max(r.max_rel_err, p.max_rel);
    if (p.first >= 0 && (r.first < 0 || p.first < r.first)) r.first = p.first;
  }
  // Bytes beyond the last whole lane: exact.
  for (uint64_t i = lanes * lane; i < expected.size(); ++i)
    if (e[i] != g[i]) {
      ++r.mismatches;
      if (r.first < 0) r.first = static_cast<int64_t>(lanes);
    }
  r.ok = r.mismatches == 0;
  if (r.first >= 0 && static_cast<uint64_t>(r.first) < lanes) {
    r.expected_first = load_lane(e, dtype.kind, static_cast<size_t>(r.first));
    r.got_first = load_lane(g, dtype.kind, static_cast<size_t>(r.first));
  }
  return r;
}

}  // namespace stark::harness
