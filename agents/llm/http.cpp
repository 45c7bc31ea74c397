#include "agents/llm/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>

namespace stark::llm {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string trim_copy(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

void global_init_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

/// Where the body goes; past kMaxResponseBytes the transfer stops.
struct BodySink {
  std::string* body;
  bool too_large = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<BodySink*>(user);
  if (sink->body->size() + size * count > kMaxResponseBytes) {
    sink->too_large = true;
    return 0;  // libcurl ends the transfer with CURLE_WRITE_ERROR
  }
  sink->body->append(data, size * count);
  return size * count;
}

// Called once per header line; a new status line (a redirect or a 100
// Continue before the real answer) starts a fresh header set.
size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto* headers = static_cast<std::map<std::string, std::string>*>(user);
  std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {
    headers->clear();
  } else if (auto colon = line.find(':'); colon != std::string_view::npos) {
    (*headers)[lower(std::string(line.substr(0, colon)))] = trim_copy(line.substr(colon + 1));
  }
  return size * count;
}

struct CurlDeleter {
  void operator()(CURL* c) const { curl_easy_cleanup(c); }
};
struct SlistDeleter {
  void operator()(curl_slist* s) const { curl_slist_free_all(s); }
};

}  // namespace

std::string HttpResponse::header(const std::string& lower_name) const {
  auto it = headers.find(lower_name);
  return it == headers.end() ? std::string() : it->second;
}

std::variant<HttpResponse, TransportError> http_post(const HttpRequest& request, const HttpTimeouts& timeouts) {
  global_init_once();
  std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  if (!curl) return TransportError{TransportError::Kind::Other, "libcurl could not create a handle"};

  std::unique_ptr<curl_slist, SlistDeleter> header_list;
  curl_slist* raw = nullptr;
  for (const auto& [name, value] : request.headers) raw = curl_slist_append(raw, (name + ": " + value).c_str());
  raw = curl_slist_append(raw, "Expect:");  // no 100-continue round trip for large prompts
  header_list.reset(raw);

  HttpResponse response;
  char error_buffer[CURL_ERROR_SIZE] = {0};
  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, header_list.get());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
  BodySink sink{&response.body};
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &response.headers);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeouts.connect.count()));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(timeouts.total.count()));
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: safe in threads
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(h, CURLOPT_USERAGENT, "stark-llm/0.1");
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);

  CURLcode rc = curl_easy_perform(h);
  if (sink.too_large)
    return TransportError{TransportError::Kind::TooLarge,
                          "the reply is larger than " + std::to_string(kMaxResponseBytes >> 20) + " MiB"};
  if (rc != CURLE_OK) {
    std::string what = error_buffer[0] ? std::string(error_buffer) : std::string(curl_easy_strerror(rc));
    TransportError::Kind kind = TransportError::Kind::Other;
    switch (rc) {
      case CURLE_OPERATION_TIMEDOUT: kind = TransportError::Kind::Timeout; break;
      case CURLE_COULDNT_CONNECT:
      case CURLE_COULDNT_RESOLVE_HOST:
      case CURLE_COULDNT_RESOLVE_PROXY:
      case CURLE_SEND_ERROR:
      case CURLE_RECV_ERROR:
      case CURLE_GOT_NOTHING:
      case CURLE_PARTIAL_FILE: kind = TransportError::Kind::Connect; break;
      default: break;
    }
    return TransportError{kind, what};
  }
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  response.status = static_cast<int>(status);
  return response;
}

std::string url_host(std::string_view url) {
  if (auto scheme = url.find("://"); scheme != std::string_view::npos) url.remove_prefix(scheme + 3);
  url = url.substr(0, url.find_first_of("/?#"));
  if (auto at = url.rfind('@'); at != std::string_view::npos) url.remove_prefix(at + 1);
  if (url.starts_with("[")) return lower(std::string(url.substr(0, url.find(']') + 1)));  // IPv6 literal
  return lower(std::string(url.substr(0, url.find(':'))));
}

std::string endpoint_url(std::string_view base, std::string_view path, std::string_view drop_suffix) {
  while (base.ends_with('/')) base.remove_suffix(1);
  if (!drop_suffix.empty() && base.ends_with(drop_suffix)) base.remove_suffix(drop_suffix.size());
  return std::string(base) + std::string(path);
}

bool is_secret_header(const std::string& name) {
  std::string n = lower(name);
  if (n == "cookie" || n == "set-cookie") return true;
  for (std::string_view word : {"key", "token", "auth", "secret", "password", "session"})
    if (n.find(word) != std::string::npos) return true;
  return false;
}

std::string redact_url(std::string_view url) {
  static const std::string mark = "[redacted]";
  if (!url.starts_with("http://") && !url.starts_with("https://")) return std::string(url);  // a command line
  size_t host = url.find("://") + 3;
  size_t path = url.find_first_of("/?#", host);
  std::string_view authority = url.substr(host, path == std::string_view::npos ? std::string_view::npos : path - host);
  std::string out(url.substr(0, host));
  if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
    out += mark + "@";
    authority.remove_prefix(at + 1);
  }
  out += authority;
  if (path == std::string_view::npos) return out;
  std::string_view rest = url.substr(path);
  size_t query = rest.find('?');
  out += rest.substr(0, query);
  if (query == std::string_view::npos) return out;
  rest.remove_prefix(query);  // "?a=1&key=2#frag": each parameter after its '?' or '&'
  size_t fragment = rest.find('#');
  std::string_view params = rest.substr(0, fragment);
  for (size_t i = 0; i < params.size();) {
    size_t end = params.find('&', i + 1);
    std::string_view param = params.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
    size_t eq = param.find('=');
    if (eq != std::string_view::npos && is_secret_header(std::string(param.substr(1, eq - 1))))
      out += std::string(param.substr(0, eq + 1)) + mark;
    else out += param;
    i = end == std::string_view::npos ? params.size() : end;
  }
  if (fragment != std::string_view::npos) out += rest.substr(fragment);
  return out;
}

std::vector<std::string> redacted_headers(const HttpRequest& request) {
  std::vector<std::string> out;
  for (const auto& [name, value] : request.headers)
    out.push_back(name + ": " + (is_secret_header(name) ? std::string("[redacted]") : value));
  return out;
}

std::string scrub(std::string text, const std::string& secret) {
  if (secret.empty()) return text;
  static const std::string mark = "[redacted]";
  for (size_t pos = text.find(secret); pos != std::string::npos; pos = text.find(secret, pos + mark.size()))
    text.replace(pos, secret.size(), mark);
  return text;
}

}  // namespace stark::llm
