#include "agents/builtin/launch_bounds.h"

#include <fmt/format.h>

#include "agents/builtin/rewrite.h"

namespace stark::builtin {

std::vector<Params> LaunchBounds::candidates(const Subject& s) const {
  int64_t block = constant_block(s.launch);
  if (s.has(name()) || s.has("max-registers") || s.analysis->has_launch_bounds || block <= 0 ||
      !s.analysis->global_attr.valid())
    return {};
  return {{{{"threads", block}, {"min_blocks", 2}}}, {{{"threads", block}, {"min_blocks", 1}}}};
}

Expected<Variant> LaunchBounds::apply(const Subject& s, const Params& p) const {
  const Snippet& g = s.analysis->global_attr;
  if (!g.valid()) return Error{"launch-bounds: cannot find __global__"};
  auto source = apply_edits(
      s.source, {{g.end, g.end, fmt::format(" __launch_bounds__({}, {})", p.get("threads"), p.get("min_blocks"))}});
  if (!source) return source.error();
  return s.with_source(*source);
}

}  // namespace stark::builtin
