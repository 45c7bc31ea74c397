#include "agents/llm/api_http.h"

#include <fmt/format.h>

#include <algorithm>
#include <thread>

namespace stark::llm {

namespace {

std::string seconds_text(std::chrono::milliseconds ms) {
  return fmt::format("{:g} s", static_cast<double>(ms.count()) / 1000.0);
}

}  // namespace

ApiHttp::ApiHttp(HttpTimeouts timeouts, RetryPolicy policy, int concurrency)
    : timeouts_(timeouts), policy_(std::move(policy)), backoff_(policy_), gate_(concurrency) {
  if (policy_.max_attempts < 1) policy_.max_attempts = 1;
}

bool ApiHttp::retryable_status(int status) {
  return status == 408 || status == 409 || status == 429 || (status >= 500 && status <= 599);
}

std::optional<std::chrono::milliseconds> ApiHttp::server_wait(const HttpResponse& response) const {
  auto now = std::chrono::system_clock::now();
  // retry-after-ms is what the official SDKs read first; plain Retry-After is
  // the standard header (seconds or an HTTP-date). Anthropic sends retry-after.
  if (auto ms = response.header("retry-after-ms"); !ms.empty())
    if (auto wait = parse_retry_after(ms, now)) return std::chrono::milliseconds(wait->count() / 1000);
  if (auto ra = response.header("retry-after"); !ra.empty()) return parse_retry_after(ra, now);
  return std::nullopt;
}

void ApiHttp::wait(std::chrono::milliseconds delay) const {
  if (policy_.sleep) policy_.sleep(delay);
  else std::this_thread::sleep_for(delay);
}

Expected<PostOutcome> ApiHttp::post(const HttpRequest& request,
                                    const std::function<bool(const HttpResponse&)>& permanent) {
  using Clock = std::chrono::steady_clock;
  // The call ends at the earlier of its own limit and the caller's deadline.
  std::optional<Clock::time_point> deadline = request.deadline;
  if (policy_.call_limit) {
    auto own = Clock::now() + *policy_.call_limit;
    deadline = deadline ? std::min(*deadline, own) : own;
  }
  auto remaining = [&] { return std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()); };
  auto out_of_time = [&] {
    return Error{fmt::format("no complete reply from {} before the call's time ran out ({})", request.url,
                             request.deadline && (!policy_.call_limit || *deadline == *request.deadline)
                                 ? "the kernel's --time-limit"
                                 : "--llm-timeout " + seconds_text(*policy_.call_limit))};
  };
  TransportError last_failure;
  for (int attempt = 1;; ++attempt) {
    HttpTimeouts timeouts = timeouts_;
    if (deadline) {
      if (remaining().count() <= 0) return out_of_time();
      timeouts.total = std::min(timeouts.total, remaining());
      timeouts.connect = std::min(timeouts.connect, timeouts.total);
    }
    std::variant<HttpResponse, TransportError> result;
    {
      Gate::Slot slot(gate_);
      result = http_post(request, timeouts);
    }
    std::optional<std::chrono::milliseconds> delay;
    if (auto* response = std::get_if<HttpResponse>(&result)) {
      bool retry = retryable_status(response->status) && !(permanent && permanent(*response));
      if (!retry || attempt >= policy_.max_attempts) return PostOutcome{std::move(*response), attempt, std::nullopt};
      delay = server_wait(*response);
      if (delay && *delay > policy_.max_retry_after) return PostOutcome{std::move(*response), attempt, delay};
    } else {
      last_failure = std::get<TransportError>(result);
      if (last_failure.kind == TransportError::Kind::TooLarge)
        return Error{
            fmt::format("{} sent a reply larger than {} MiB; it was refused", request.url, kMaxResponseBytes >> 20)};
      if (last_failure.kind == TransportError::Kind::Other)
        return Error{fmt::format("cannot talk to {}: {}", request.url, last_failure.message)};
      if (deadline && last_failure.kind == TransportError::Kind::Timeout && remaining().count() <= 0)
        return out_of_time();
      if (attempt >= policy_.max_attempts) break;
    }
    auto pause = delay ? *delay : backoff_.delay(attempt);
    if (deadline && pause >= remaining()) return out_of_time();
    wait(pause);
  }
  if (last_failure.kind == TransportError::Kind::Timeout)
    return Error{fmt::format("no complete reply from {} within {} ({} attempts; raise the timeout for slow models)",
                             request.url, seconds_text(timeouts_.total), policy_.max_attempts)};
  return Error{
      fmt::format("cannot reach {} after {} attempts: {}", request.url, policy_.max_attempts, last_failure.message)};
}

}  // namespace stark::llm
