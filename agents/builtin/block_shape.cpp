#include "agents/builtin/block_shape.h"

#include <fmt/format.h>

#include <optional>

namespace stark::builtin {

namespace {

/// Why a kernel is not a 2-D point-per-thread kernel, or nothing when it is:
/// x and y thread indices, each checked against a bound, and no cooperation
/// between the threads of a block that a new shape could break.
std::optional<std::string> not_pointwise_2d(const KernelAnalysis& a) {
  const ThreadIndex* x = a.index('x');
  const ThreadIndex* y = a.index('y');
  if (!x || !y || a.indices.size() != 2) return "not a kernel with one x and one y thread index";
  if (a.uses_shared_memory || a.uses_sync || a.uses_warp_ops || !a.atomics.empty())
    return "the threads of a block cooperate";
  bool x_checked = false, y_checked = false;
  for (const auto& g : a.guards) {
    x_checked |= g.var == x->var;
    y_checked |= g.var == y->var;
  }
  if (!x_checked || !y_checked) return "a thread index is not checked against a bound";
  return std::nullopt;
}

}  // namespace

std::vector<Params> BlockShape::candidates(const Subject& s) const {
  // Only the original's shape: the structural strategies set their own.
  if (!s.launch.empty() || s.has(name()) || not_pointwise_2d(*s.analysis)) return {};
  return {{{{"x", 32}, {"y", 8}}}, {{{"x", 64}, {"y", 4}}}, {{{"x", 32}, {"y", 4}}}, {{{"x", 128}, {"y", 2}}}};
}

Expected<Variant> BlockShape::apply(const Subject& s, const Params& p) const {
  if (auto why = not_pointwise_2d(*s.analysis)) return Error{"block-shape does not apply: " + *why};
  Variant v = s.with_source(s.source);
  int64_t bx = p.get("x"), by = p.get("y");
  v.launch.block = {std::to_string(bx), std::to_string(by), "1"};
  v.launch.grid = {fmt::format("ceil_div({}, {})", s.extent('x'), bx),
                   fmt::format("ceil_div({}, {})", s.extent('y'), by), "grid.z"};
  return v;
}

}  // namespace stark::builtin
