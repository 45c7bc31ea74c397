#include "agents/builtin/block_size.h"

#include <fmt/format.h>

#include "agents/builtin/guarded_body.h"

namespace stark::builtin {

std::vector<Params> BlockSize::candidates(const Subject& s) const {
  // Only the original's shape: the structural strategies set their own.
  if (!s.launch.empty() || s.has(name()) || !guarded_body(*s.analysis, s.source)) return {};
  return {{{{"block", 512}}}, {{{"block", 128}}}, {{{"block", 1024}}}, {{{"block", 256}}}};
}

Expected<Variant> BlockSize::apply(const Subject& s, const Params& p) const {
  if (!guarded_body(*s.analysis, s.source)) return Error{"block-size: not a 1-D kernel with a bound check"};
  Variant v = s.with_source(s.source);
  int64_t b = p.get("block");
  v.launch.block = {std::to_string(b)};
  v.launch.grid = {fmt::format("ceil_div({}, {})", s.extent('x'), b)};
  return v;
}

}  // namespace stark::builtin
