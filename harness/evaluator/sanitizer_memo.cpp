#include "harness/evaluator/sanitizer_memo.h"

#include <string>

#include "core/file_io.h"
#include "core/hash.h"
#include "core/text.h"
#include "harness/evaluator/sanitizer.h"

namespace stark::harness {

std::string SanitizerMemo::key(CheckName tool, nlohmann::json run_once_request, const nlohmann::json& capture) {
  run_once_request.erase("id");
  return content_hash("stark-sanitizer-memo/2\n" + std::string(to_string(tool)) + " " +
                      join(sanitizer_tool_options(tool), " ") + "\n" + run_once_request.dump() + "\n" + capture.dump())
      .substr(6);
}

std::optional<Check> SanitizerMemo::find(CheckName tool, const std::string& key) const {
  auto detail = read_file(dir_ / (key + ".pass"));
  if (!detail) return std::nullopt;
  Check c;
  c.name = tool;
  c.ok = true;
  c.detail = *detail + (detail->empty() ? "" : "; ") + "reused: this cubin passed on this capture before";
  return c;
}

void SanitizerMemo::remember(const std::string& key, const Check& check) const {
  if (!check.ok || !*check.ok) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  (void)write_file_atomic(dir_ / (key + ".pass"), check.detail);
}

}  // namespace stark::harness
