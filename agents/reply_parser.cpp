#include "agents/reply_parser.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <vector>

#include "agents/grounded.h"
#include "core/text.h"

namespace stark {

namespace {

struct Block {
  std::string lang;
  std::string text;
  bool closed = true;
};

/// Every ``` fenced block; a last one without a closing fence is kept, marked open.
std::vector<Block> fenced_blocks(std::string_view reply) {
  std::vector<Block> out;
  size_t pos = 0;
  for (;;) {
    size_t open = reply.find("```", pos);
    if (open == std::string_view::npos) break;
    size_t line_end = reply.find('\n', open);
    if (line_end == std::string_view::npos) break;
    Block b;
    b.lang = std::string(trim(reply.substr(open + 3, line_end - open - 3)));
    size_t close = reply.find("```", line_end + 1);
    if (close == std::string_view::npos) {
      b.text = std::string(reply.substr(line_end + 1));
      b.closed = false;
      out.push_back(std::move(b));
      break;
    }
    b.text = std::string(reply.substr(line_end + 1, close - line_end - 1));
    out.push_back(std::move(b));
    pos = close + 3;
  }
  return out;
}

bool defines_kernel(std::string_view code, std::string_view name) {
  return code.find("__global__") != std::string_view::npos && find_body(code, name).has_value();
}

/// Without fences: from the line that starts the kernel's declaration (or
/// the first helper before it) to the kernel's closing brace.
std::optional<std::string> bare_code(std::string_view reply, std::string_view name) {
  size_t global = reply.find("__global__");
  if (global == std::string_view::npos) return std::nullopt;
  // Helpers or a template header on the lines just before belong to it.
  size_t start = reply.rfind('\n', global);
  start = start == std::string_view::npos ? 0 : start + 1;
  for (std::string_view marker : {"static __device__", "template", "namespace {", "#include"}) {
    size_t at = reply.find(marker);
    if (at != std::string_view::npos && at < start) {
      size_t line = reply.rfind('\n', at);
      start = line == std::string_view::npos ? 0 : line + 1;
    }
  }
  std::string_view rest = reply.substr(start);
  auto body = find_body(rest, name);
  if (!body) return std::nullopt;
  return std::string(rest.substr(0, static_cast<size_t>(body->end)));
}

Expected<LaunchOverride> parse_launch(std::string_view reply) {
  static const std::regex line(R"((?:^|\n)\s*LAUNCH:\s*(\{[^\n]*\}))");
  std::string text(reply);
  std::smatch m;
  if (!std::regex_search(text, m, line)) return LaunchOverride{};
  try {
    return nlohmann::json::parse(m[1].str()).get<LaunchOverride>();
  } catch (const std::exception& e) {
    return Error{fmt::format("the LAUNCH line is not a valid launch override: {}", e.what())};
  }
}

}  // namespace

Expected<ParsedReply> parse_reply(std::string_view reply, std::string_view name, bool truncated) {
  ParsedReply out;
  static const std::regex strategy(R"((?:^|\n)\s*\**STRATEGY:?\**:?\s*([^\n]+))");
  std::string text(reply);
  std::smatch m;
  if (std::regex_search(text, m, strategy)) out.strategy = std::string(trim(m[1].str()));

  std::vector<Block> blocks = fenced_blocks(reply);
  const Block* chosen = nullptr;
  for (const auto& b : blocks)
    if (defines_kernel(b.text, name) && (!chosen || b.text.size() > chosen->text.size())) chosen = &b;
  if (chosen) {
    out.code = chosen->text;
  } else {
    bool open_block = !blocks.empty() && !blocks.back().closed;
    if (truncated || open_block) {
      if (open_block && blocks.back().text.find(std::string(name)) != std::string::npos)
        return Error{fmt::format("the reply was cut off before the end of '{}' (it stopped at the token limit)", name)};
    }
    auto bare = bare_code(reply, name);
    if (!bare) {
      if (truncated) return Error{"the reply was cut off at the token limit before it contained the kernel"};
      return Error{fmt::format("the reply contains no complete definition of the kernel '{}'", name)};
    }
    out.code = *bare;
  }
  // Trailing whitespace and a stray annotation-free wrapper are harmless; keep the text as written.
  while (!out.code.empty() && (out.code.back() == '\n' || out.code.back() == ' ')) out.code.pop_back();

  auto launch = parse_launch(reply);
  if (!launch) return launch.error();
  out.launch = *launch;
  return out;
}

}  // namespace stark
