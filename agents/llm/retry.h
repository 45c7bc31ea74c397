// When and how long to wait before trying an API call again: exponential
// backoff with seeded jitter, and the server's own Retry-After.
#ifndef STARK_AGENTS_LLM_RETRY_H
#define STARK_AGENTS_LLM_RETRY_H

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <string_view>

namespace stark::llm {

/// The retry settings of one client.
struct RetryPolicy {
  int max_attempts = 5;                                // attempts in all, the first included
  std::chrono::milliseconds base_delay{1'000};         // wait before the first retry, doubled each time
  std::chrono::milliseconds max_delay{60'000};         // ceiling of the backoff
  double jitter = 0.25;                                // each backoff scaled by a factor in [1-jitter, 1+jitter]
  std::chrono::milliseconds max_retry_after{300'000};  // a server asking for a longer wait is not retried
  /// The whole call, every attempt and wait included (--llm-timeout); unset: only each attempt's own limit.
  std::optional<std::chrono::milliseconds> call_limit;
  uint64_t seed = 0;  // the jitter's seed: same seed, same delays
  /// How to wait (tests record the delays instead of sleeping); empty = sleep.
  std::function<void(std::chrono::milliseconds)> sleep;
};

/// A Retry-After value as a wait: delay-seconds ("30", "1.5") or an HTTP-date
/// ("Wed, 21 Oct 2015 07:28:00 GMT", compared with now; a past date is 0).
/// nullopt when the value is neither.
std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now);

/// The backoff sequence: delay(n) = min(max_delay, base_delay * 2^(n-1)) times
/// a jitter factor drawn from a generator seeded with the policy's seed.
/// Thread-safe; single-threaded use gives the same delays for the same seed.
class Backoff {
 public:
  explicit Backoff(const RetryPolicy& policy);
  /// The wait before retry number n (1 = the first retry).
  std::chrono::milliseconds delay(int retry);

 private:
  std::chrono::milliseconds base_, max_;
  double jitter_;
  std::mutex mutex_;
  std::mt19937_64 rng_;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_RETRY_H
