// The HTTP layer both API clients share: a POST retried on 429, 5xx, timeouts
// and connection errors (honouring Retry-After), with at most N requests of one
// client in flight.
#ifndef STARK_AGENTS_LLM_API_HTTP_H
#define STARK_AGENTS_LLM_API_HTTP_H

#include <chrono>
#include <functional>
#include <optional>

#include "agents/llm/gate.h"
#include "agents/llm/http.h"
#include "agents/llm/retry.h"
#include "core/expected.h"

namespace stark::llm {

/// The final HTTP answer of a retried POST.
struct PostOutcome {
  HttpResponse response;  // the last answer; an error status when retries ran out or it was not retryable
  int attempts = 1;
  /// Set when the server asked for a wait longer than RetryPolicy::max_retry_after,
  /// which ends the retries.
  std::optional<std::chrono::milliseconds> refused_wait;
};

/// Retrying, concurrency-capped POSTs for one client. Thread-safe.
class ApiHttp {
 public:
  ApiHttp(HttpTimeouts timeouts, RetryPolicy policy, int concurrency);

  /// POSTs until an answer that is not retryable, or the attempts run out.
  /// `permanent` marks an answer with a usually retryable status that must not
  /// be retried (a 429 for an exhausted quota). An Error only when no HTTP
  /// answer came at all (dead endpoint, timeouts).
  Expected<PostOutcome> post(const HttpRequest& request,
                             const std::function<bool(const HttpResponse&)>& permanent = {});

  /// 408, 409, 429 and every 5xx (Anthropic's 529 "overloaded" included).
  static bool retryable_status(int status);

  const HttpTimeouts& timeouts() const { return timeouts_; }

 private:
  std::optional<std::chrono::milliseconds> server_wait(const HttpResponse& response) const;
  void wait(std::chrono::milliseconds delay) const;

  HttpTimeouts timeouts_;
  RetryPolicy policy_;
  Backoff backoff_;
  Gate gate_;
};

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_API_HTTP_H
