#include "agents/builtin/max_registers.h"

#include <fmt/format.h>

#include "agents/builtin/rewrite.h"

namespace stark::builtin {

std::vector<Params> MaxRegisters::candidates(const Subject& s) const {
  if (s.has(name()) || s.has("launch-bounds") || s.analysis->has_launch_bounds) return {};
  return {{{{"registers", 64}}}, {{{"registers", 32}}}, {{{"registers", 128}}}};
}

Expected<Variant> MaxRegisters::apply(const Subject& s, const Params& p) const {
  const Snippet& g = s.analysis->global_attr;
  if (!g.valid()) return Error{"max-registers: cannot find __global__"};
  auto source = apply_edits(s.source, {{g.end, g.end, fmt::format(" __maxnreg__({})", p.get("registers"))}});
  if (!source) return source.error();
  return s.with_source(*source);
}

}  // namespace stark::builtin
