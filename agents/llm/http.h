// One HTTP POST over libcurl, with connect and total timeouts; and the
// redaction of headers that carry secrets. Retries live in api_http.h.
#ifndef STARK_AGENTS_LLM_HTTP_H
#define STARK_AGENTS_LLM_HTTP_H

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace stark::llm {

/// A POST to send: the URL, request headers in order, the body.
struct HttpRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  /// When the caller stops waiting (a kernel's --time-limit), retries
  /// included; never sent.
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

/// What the server answered. Header names are lower-cased (HTTP header names
/// are case-insensitive: Retry-After and retry-after are the same header).
struct HttpResponse {
  int status = 0;
  std::map<std::string, std::string> headers;
  std::string body;

  /// The header's value, or "" when absent; name in lower case.
  std::string header(const std::string& lower_name) const;
};

/// The largest response body http_post reads; a larger one is refused
/// (TooLarge) before it can fill the memory. Model replies are far smaller.
inline constexpr size_t kMaxResponseBytes = 16 * 1024 * 1024;

/// No HTTP answer at all: the connection failed, the time ran out, or the
/// body passed kMaxResponseBytes.
struct TransportError {
  enum class Kind { Timeout, Connect, TooLarge, Other };
  Kind kind = Kind::Other;
  std::string message;  // libcurl's description, one line
};

/// How long a request may take: to connect, and in all (reply included).
struct HttpTimeouts {
  std::chrono::milliseconds connect{10'000};
  std::chrono::milliseconds total{600'000};  // reasoning models can think for minutes
};

/// POSTs the request and waits for the whole reply. Thread-safe: each call uses
/// its own libcurl handle.
std::variant<HttpResponse, TransportError> http_post(const HttpRequest& request, const HttpTimeouts& timeouts);

/// The host of an http(s) URL, lower-cased, without port or credentials
/// ("https://API.openai.com:443/v1" -> "api.openai.com").
std::string url_host(std::string_view url);

/// base without trailing slashes (and without a trailing drop_suffix, such as
/// "/v1", when given), then path: the endpoint URL.
std::string endpoint_url(std::string_view base, std::string_view path, std::string_view drop_suffix = {});

/// True for headers whose value may be a credential: Authorization,
/// x-api-key, api-key, Cookie, and any name containing "key", "token",
/// "auth", "secret", "password" or "session".
bool is_secret_header(const std::string& name);

/// The http(s) URL with its user information (user:password@) replaced by
/// "[redacted]", and the value of every query parameter whose name is a
/// secret header's name: what may be written down of a base URL. Any other
/// text (the command backend's command line) comes back unchanged.
std::string redact_url(std::string_view url);

/// The request headers as "name: value" lines with credential values replaced
/// by "[redacted]", for logs and the audit.
std::vector<std::string> redacted_headers(const HttpRequest& request);

/// text with every occurrence of secret replaced by "[redacted]" (no-op for an
/// empty secret): applied to anything a server echoes back before it is shown.
std::string scrub(std::string text, const std::string& secret);

}  // namespace stark::llm

#endif  // STARK_AGENTS_LLM_HTTP_H
