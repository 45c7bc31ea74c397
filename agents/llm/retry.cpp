#include "agents/llm/retry.h"

#include <time.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace stark::llm {

namespace {

std::string_view trim_view(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<double> parse_seconds(std::string_view s) {
  if (s.empty()) return std::nullopt;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.') return std::nullopt;
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// IMF-fixdate (RFC 9110 section 5.6.7), the form servers must send:
// "Sun, 06 Nov 1994 08:49:37 GMT".
std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view s) {
  std::string text(s);
  struct tm tm = {};
  const char* end = strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (!end || *end != '\0') return std::nullopt;
  time_t t = timegm(&tm);
  if (t == static_cast<time_t>(-1)) return std::nullopt;
  return std::chrono::system_clock::from_time_t(t);
}

}  // namespace

std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now) {
  value = trim_view(value);
  if (auto seconds = parse_seconds(value))
    return std::chrono::milliseconds(static_cast<int64_t>(std::llround(*seconds * 1000.0)));
  if (auto when = parse_http_date(value)) {
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(*when - now);
    return std::max(wait, std::chrono::milliseconds(0));
  }
  return std::nullopt;
}

Backoff::Backoff(const RetryPolicy& policy)
    : base_(policy.base_delay),
      max_(policy.max_delay),
      jitter_(std::clamp(policy.jitter, 0.0, 1.0)),
      rng_(policy.seed) {}

std::chrono::milliseconds Backoff::delay(int retry) {
  double nominal = static_cast<double>(base_.count()) * std::ldexp(1.0, std::clamp(retry, 1, 62) - 1);
  nominal = std::min(nominal, static_cast<double>(max_.count()));
  double unit;
  {
    std::lock_guard lock(mutex_);
    unit = static_cast<double>(rng_() >> 11) * 0x1.0p-53;  // uniform in [0, 1), the same on every platform
  }
  double factor = 1.0 - jitter_ + 2.0 * jitter_ * unit;
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(nominal * factor)));
}

}  // namespace stark::llm
