#include "agents/prompts.h"

#include <stdexcept>

#include "agents/prompts_data.h"

namespace stark {

std::string_view prompt_version() { return kPromptVersion; }

std::string_view prompt_template(std::string_view name) {
  if (name == "system") return kSystemPrompt;
  if (name == "plan") return kPlanPrompt;
  if (name == "code") return kCodePrompt;
  if (name == "debug") return kDebugPrompt;
  throw std::logic_error("no prompt template named " + std::string(name));
}

std::string render_template(std::string_view text, const std::map<std::string, std::string>& values) {
  std::string out;
  size_t pos = 0;
  for (;;) {
    size_t open = text.find("{{", pos);
    if (open == std::string_view::npos) break;
    size_t close = text.find("}}", open);
    if (close == std::string_view::npos) break;
    out.append(text.substr(pos, open - pos));
    std::string key(text.substr(open + 2, close - open - 2));
    auto it = values.find(key);
    if (it == values.end()) throw std::logic_error("prompt template needs a value for {{" + key + "}}");
    out += it->second;
    pos = close + 2;
  }
  out.append(text.substr(pos));
  return out;
}

}  // namespace stark
