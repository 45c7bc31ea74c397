#include "agents/builtin/restrict.h"

#include <fmt/format.h>

#include "agents/builtin/rewrite.h"
#include "core/cpp_tokens.h"

namespace stark::builtin {

namespace {

/// Whether the tokens just before offset `name` of the declaration are a
/// pointer declarator's `*` (with cv-qualifiers after it): where __restrict__
/// may go. An array parameter (`float p[]`) or a reference is not.
bool after_pointer_declarator(std::string_view declaration, int64_t name) {
  auto tokens = cpp_tokens(declaration.substr(0, static_cast<size_t>(name)));
  while (!tokens.empty()) {
    std::string_view t = token_text(declaration, tokens.back());
    if (t == "*") return true;
    if (t != "const" && t != "volatile") return false;
    tokens.pop_back();
  }
  return false;
}

}  // namespace

std::vector<Params> Restrict::candidates(const Subject& s) const {
  if (s.has(name())) return {};
  int pointers = 0;
  for (const auto& prm : s.analysis->params) pointers += prm.kind == ParamKind::Pointer && !prm.is_restrict;
  if (pointers < 2) return {};
  return {Params{}};
}

Expected<Variant> Restrict::apply(const Subject& s, const Params&) const {
  // `T* name`, `T* const name`: __restrict__ goes before the name, after the
  // declarator's `*` and its qualifiers.
  const KernelAnalysis& a = *s.analysis;
  std::vector<TextEdit> edits;
  for (size_t i = 0; i < a.params.size(); ++i) {
    const Param& prm = a.params[i];
    if (prm.kind != ParamKind::Pointer || prm.is_restrict) continue;
    const Snippet* at = i < a.param_names.size() && a.param_names[i].valid() ? &a.param_names[i] : nullptr;
    if (!at || !after_pointer_declarator(a.declaration.text, at->begin - a.declaration.begin))
      return Error{fmt::format("restrict: cannot find parameter '{}' after a '*'", prm.name)};
    edits.push_back({at->begin, at->begin, "__restrict__ "});
  }
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(*source);
}

}  // namespace stark::builtin
