#include "agents/reply_parser.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <optional>
#include <vector>

#include "agents/grounded.h"
#include "core/text.h"

namespace stark {

namespace {

constexpr size_t npos = std::string_view::npos;

struct Block {
  std::string_view text;
  bool closed = true;
};

/// Every ``` fenced block; a last one without a closing fence is kept, marked open.
std::vector<Block> fenced_blocks(std::string_view reply) {
  std::vector<Block> out;
  size_t pos = 0;
  for (;;) {
    size_t open = reply.find("```", pos);
    if (open == npos) break;
    size_t line_end = reply.find('\n', open);
    if (line_end == npos) break;
    size_t close = reply.find("```", line_end + 1);
    if (close == npos) {
      out.push_back({reply.substr(line_end + 1), false});
      break;
    }
    out.push_back({reply.substr(line_end + 1, close - line_end - 1), true});
    pos = close + 3;
  }
  return out;
}

bool defines_kernel(std::string_view code, std::string_view name) {
  return code.find("__global__") != npos && find_body(code, name).has_value();
}

/// Without fences: from the line that starts the kernel's declaration (or
/// the first helper before it) to the kernel's closing brace.
std::optional<std::string_view> bare_code(std::string_view reply, std::string_view name) {
  size_t global = reply.find("__global__");
  if (global == npos) return std::nullopt;
  // Helpers or a template header on the lines just before belong to it.
  size_t start = reply.rfind('\n', global);
  start = start == npos ? 0 : start + 1;
  for (std::string_view marker : {"static __device__", "template", "namespace {", "#include"}) {
    size_t at = reply.find(marker);
    if (at != npos && at < start) {
      size_t line = reply.rfind('\n', at);
      start = line == npos ? 0 : line + 1;
    }
  }
  std::string_view rest = reply.substr(start);
  auto body = find_body(rest, name);
  if (!body) return std::nullopt;
  return rest.substr(0, static_cast<size_t>(body->end));
}

bool blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

/// Index of the first character at or after i that is not a space or tab
/// (or \r, \v, \f) on the same line.
size_t skip_inline_space(std::string_view s, size_t i) {
  while (i < s.size() && s[i] != '\n' && blank(s[i])) ++i;
  return i;
}

size_t skip_space(std::string_view s, size_t i) {
  while (i < s.size() && blank(s[i])) ++i;
  return i;
}

size_t line_end(std::string_view s, size_t i) {
  size_t nl = s.find('\n', i);
  return nl == npos ? s.size() : nl;
}

/// For each line, in order, calls at(index after the line's leading spaces)
/// until it returns a value.
template <typename F>
auto first_line_match(std::string_view s, F at) -> decltype(at(size_t{0})) {
  for (size_t line = 0; line < s.size(); line = line_end(s, line) + 1)
    if (auto found = at(skip_inline_space(s, line))) return found;
  return std::nullopt;
}

/// "LAUNCH: {...}" (the JSON may start on the next line): the text from the
/// "{" to the last "}" of its line.
std::optional<std::string_view> launch_json(std::string_view reply) {
  return first_line_match(reply, [&](size_t p) -> std::optional<std::string_view> {
    if (reply.compare(p, 7, "LAUNCH:") != 0) return std::nullopt;
    p = skip_space(reply, p + 7);
    if (p >= reply.size() || reply[p] != '{') return std::nullopt;
    size_t last = reply.substr(p, line_end(reply, p) - p).rfind('}');
    if (last == npos) return std::nullopt;
    return reply.substr(p, last + 1);
  });
}

Expected<LaunchOverride> parse_launch(std::string_view reply) {
  auto text = launch_json(reply);
  if (!text) return LaunchOverride{};
  try {
    return nlohmann::json::parse(*text).get<LaunchOverride>();
  } catch (const std::exception& e) {
    return Error{fmt::format("the LAUNCH line is not a valid launch override: {}", e.what())};
  }
}

Expected<std::string_view> kernel_code(std::string_view reply, std::string_view name, bool truncated) {
  std::vector<Block> blocks = fenced_blocks(reply);
  const Block* chosen = nullptr;
  for (const auto& b : blocks)
    if (defines_kernel(b.text, name) && (!chosen || b.text.size() > chosen->text.size())) chosen = &b;
  if (chosen) return chosen->text;
  bool open_block = !blocks.empty() && !blocks.back().closed;
  if (open_block && blocks.back().text.find(name) != npos)
    return Error{fmt::format("the reply was cut off before the end of '{}' (it stopped at the token limit)", name)};
  auto bare = bare_code(reply, name);
  if (bare) return *bare;
  if (truncated) return Error{"the reply was cut off at the token limit before it contained the kernel"};
  return Error{fmt::format("the reply contains no complete definition of the kernel '{}'", name)};
}

}  // namespace

Expected<void> check_reply_size(std::string_view reply) {
  if (reply.size() <= kMaxReplyBytes) return {};
  return Error{fmt::format("the reply is {} KiB, over the {} KiB a reply may have; it was not read",
                           (reply.size() + 1023) / 1024, kMaxReplyBytes / 1024)};
}

std::string find_strategy(std::string_view reply) {
  auto found = first_line_match(reply, [&](size_t p) -> std::optional<std::string_view> {
    while (p < reply.size() && reply[p] == '*') ++p;
    if (reply.compare(p, 8, "STRATEGY") != 0) return std::nullopt;
    p += 8;
    if (p < reply.size() && reply[p] == ':') ++p;
    while (p < reply.size() && reply[p] == '*') ++p;
    if (p < reply.size() && reply[p] == ':') ++p;
    p = skip_space(reply, p);  // the text may start on a later line
    if (p >= reply.size()) return std::nullopt;
    return trim(reply.substr(p, line_end(reply, p) - p));
  });
  return found ? std::string(*found) : std::string();
}

Expected<ParsedReply> parse_reply(std::string_view reply, std::string_view name, bool truncated) {
  if (auto ok = check_reply_size(reply); !ok) return ok.error();
  ParsedReply out;
  out.strategy = find_strategy(reply);
  auto code = kernel_code(reply, name, truncated);
  if (!code) return code.error();
  // Trailing whitespace is harmless; keep the rest as written.
  std::string_view kept = *code;
  while (!kept.empty() && (kept.back() == '\n' || kept.back() == ' ')) kept.remove_suffix(1);
  if (kept.size() > kMaxCodeBytes)
    return Error{fmt::format("the kernel in the reply is {} KiB, over the {} KiB a kernel may have",
                             (kept.size() + 1023) / 1024, kMaxCodeBytes / 1024)};
  out.code = std::string(kept);

  auto launch = parse_launch(reply);
  if (!launch) return launch.error();
  out.launch = *launch;
  return out;
}

}  // namespace stark
