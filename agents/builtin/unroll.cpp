#include "agents/builtin/unroll.h"

#include <fmt/format.h>

#include "agents/builtin/rewrite.h"

namespace stark::builtin {

namespace {

/// Loops a pragma can go in front of: no loop pragma applies to them yet
/// (wherever the user wrote it: a blank line or a comment may sit between),
/// and the header starts its line.
std::vector<const Loop*> unrollable(const Subject& s) {
  std::vector<const Loop*> out;
  for (const auto& l : s.analysis->loops) {
    if ((l.depth != 0 && !l.trip_count) || l.hinted) continue;
    size_t at = static_cast<size_t>(l.header.begin);
    size_t line = s.source.rfind('\n', at == 0 ? 0 : at - 1);
    size_t start = line == std::string::npos ? 0 : line + 1;
    if (s.source.find_first_not_of(" \t", start) != at) continue;
    out.push_back(&l);
  }
  return out;
}

}  // namespace

std::vector<Params> Unroll::candidates(const Subject& s) const {
  if (s.has(name()) || unrollable(s).empty()) return {};
  return {{{{"factor", 4}}}, {{{"factor", 8}}}};
}

Expected<Variant> Unroll::apply(const Subject& s, const Params& p) const {
  std::vector<TextEdit> edits;
  for (const Loop* l : unrollable(s)) {
    std::string pragma =
        l->trip_count && *l->trip_count <= 64 ? "#pragma unroll" : fmt::format("#pragma unroll {}", p.get("factor"));
    edits.push_back({l->header.begin, l->header.begin, pragma + "\n" + indentation_at(s.source, l->header.begin)});
  }
  if (edits.empty()) return Error{"unroll: no loop to unroll"};
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(*source);
}

}  // namespace stark::builtin
