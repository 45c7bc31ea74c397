#include "agents/llm/model_rules.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

namespace stark::llm {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// "openai/o3-mini" (router style) -> "o3-mini".
std::string_view after_slash(std::string_view s) {
  auto slash = s.rfind('/');
  return slash == std::string_view::npos ? s : s.substr(slash + 1);
}

// Reads a decimal number at the front of s and moves s past it.
bool take_number(std::string_view& s, int& value) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr == s.data()) return false;
  s.remove_prefix(static_cast<size_t>(ptr - s.data()));
  return true;
}

}  // namespace

bool openai_rejects_temperature(std::string_view model) {
  std::string m = lower(after_slash(model));
  std::string_view v = m;
  if (v.size() >= 2 && v[0] == 'o' && std::isdigit(static_cast<unsigned char>(v[1])))
    return true;  // o1, o3-mini, o4-mini
  if (v.starts_with("gpt-")) {
    v.remove_prefix(4);
    int major = 0;
    if (take_number(v, major)) return major >= 5;  // gpt-5, gpt-5.5, gpt-5.6-sol, gpt-6-...
  }
  return false;
}

bool anthropic_rejects_temperature(std::string_view model) {
  std::string m = lower(after_slash(model));
  std::string_view v = m;
  if (auto dot = v.find("claude-"); dot != std::string_view::npos)
    v.remove_prefix(dot + 7);  // "anthropic.claude-..." too
  else return false;
  if (v.starts_with("fable") || v.starts_with("mythos")) return true;
  std::string_view family;
  for (std::string_view f : {"opus-", "sonnet-", "haiku-"})
    if (v.starts_with(f)) family = f;
  if (family.empty()) return false;  // claude-3-5-sonnet and older naming: accepts temperature
  v.remove_prefix(family.size());
  int major = 0, minor = 0;
  if (!take_number(v, major)) return false;
  if (v.starts_with("-") && v.size() > 1 && v.size() != 9) {  // "-7" but not a "-20250514" date
    v.remove_prefix(1);
    if (!take_number(v, minor) || minor > 99) minor = 0;
  }
  if (major >= 5) return true;
  return family == "opus-" && major == 4 && minor >= 7;
}

bool openai_uses_max_completion_tokens(std::string_view model, bool official_endpoint) {
  return official_endpoint || openai_rejects_temperature(model);
}

}  // namespace stark::llm
