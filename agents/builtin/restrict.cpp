#include "agents/builtin/restrict.h"

#include <fmt/format.h>

#include <regex>

#include "agents/builtin/rewrite.h"

namespace stark::builtin {

std::vector<Params> Restrict::candidates(const Subject& s) const {
  if (s.has(name())) return {};
  int pointers = 0;
  for (const auto& prm : s.analysis->params) pointers += prm.kind == ParamKind::Pointer && !prm.is_restrict;
  if (pointers < 2) return {};
  return {Params{}};
}

Expected<Variant> Restrict::apply(const Subject& s, const Params&) const {
  // "T* name" / "T *name" in the declaration: add __restrict__ before the name.
  std::vector<TextEdit> edits;
  const std::string& decl = s.analysis->declaration.text;
  for (const auto& prm : s.analysis->params) {
    if (prm.kind != ParamKind::Pointer || prm.is_restrict) continue;
    std::regex re(fmt::format(R"(\*\s*({})\s*[,)])", prm.name));
    std::smatch m;
    if (!std::regex_search(decl, m, re)) return Error{fmt::format("restrict: cannot find parameter '{}'", prm.name)};
    int64_t at = s.analysis->declaration.begin + m.position(1);
    edits.push_back({at, at, "__restrict__ "});
  }
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(*source);
}

}  // namespace stark::builtin
