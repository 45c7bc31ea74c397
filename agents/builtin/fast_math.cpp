#include "agents/builtin/fast_math.h"

#include "agents/builtin/rewrite.h"

namespace stark::builtin {

std::vector<Params> FastMath::candidates(const Subject& s) const {
  if (s.has(name())) return {};
  for (const auto& m : s.analysis->math)
    if (m.function.back() == 'f') return {Params{}};
  return {};
}

Expected<Variant> FastMath::apply(const Subject& s, const Params&) const {
  std::vector<TextEdit> edits;
  for (const auto& m : s.analysis->math) {
    if (m.function.back() != 'f' || !m.name.valid()) continue;    // single precision only
    if (m.function == "powf" || m.function == "tanhf") continue;  // no safe intrinsic
    edits.push_back({m.name.begin, m.name.end, "__" + m.function});
  }
  if (edits.empty()) return Error{"fast-math: no single-precision math call with an intrinsic"};
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(*source);
}

}  // namespace stark::builtin
