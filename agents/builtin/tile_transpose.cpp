#include "agents/builtin/tile_transpose.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "agents/builtin/rewrite.h"

namespace stark::builtin {

namespace {

/// out[w] = in[r] over a 2-D grid of two thread indices guarded by their
/// bounds: the read contiguous along one index (`x` below, whichever grid
/// axis it came from), the write along the other (`y`). The variant's
/// threadIdx.x runs along `x` when reading and along `y` when writing.
struct Copy {
  const ThreadIndex* x = nullptr;
  const ThreadIndex* y = nullptr;
  std::string x_bound, y_bound;
  std::string write, read;     // "out[...]" and the value expression
  std::string type;            // element type of the written buffer
  int64_t begin = 0, end = 0;  // from the first index declaration to the end of the body
};

/// The last term an index expression adds ("... + c" -> "c"), spaces removed.
std::string fastest_term(std::string index) {
  index.erase(std::remove_if(index.begin(), index.end(), ::isspace), index.end());
  auto plus = index.rfind('+');
  return plus == std::string::npos ? index : index.substr(plus + 1);
}

std::optional<Copy> find_copy(const KernelAnalysis& a, const std::string& source) {
  Copy c;
  c.x = a.index('x');
  c.y = a.index('y');
  if (!c.x || !c.y || a.indices.size() != 2 || !a.loops.empty() || !a.atomics.empty() || a.uses_shared_memory)
    return std::nullopt;
  // Exactly one write and one read, both of parameters.
  const Access *w = nullptr, *r = nullptr;
  for (const auto& acc : a.accesses) {
    if (acc.write) {
      if (w) return std::nullopt;
      w = &acc;
    } else {
      if (r) return std::nullopt;
      r = &acc;
    }
  }
  if (!w || !r) return std::nullopt;
  // Reads contiguous along one index, writes along the other: a transpose.
  if (fastest_term(r->index.text) == c.y->var) std::swap(c.x, c.y);
  if (fastest_term(r->index.text) != c.x->var || fastest_term(w->index.text) != c.y->var) return std::nullopt;
  for (const auto& g : a.guards) {
    if (g.var == c.x->var) c.x_bound = g.bound.text;
    if (g.var == c.y->var) c.y_bound = g.bound.text;
  }
  if (c.x_bound.empty() || c.y_bound.empty()) return std::nullopt;
  // The statement "W = R;" is the guard's body or follows an early return.
  size_t after = source.find_first_not_of(" \t\n", static_cast<size_t>(w->expr.end));
  if (after == std::string::npos || source[after] != '=' || source.compare(after, 2, "==") == 0) return std::nullopt;
  c.write = w->expr.text;
  c.read = r->expr.text;
  c.type = element_type(a, w->base);
  if (element_type(a, r->base) != c.type) return std::nullopt;
  c.begin = std::min(c.x->statement.begin, c.y->statement.begin);
  c.end = statement_end(source, a.top_statements.back().end);
  if (a.top_statements.size() < 3) return std::nullopt;
  return c;
}

}  // namespace

std::vector<Params> TileTranspose::candidates(const Subject& s) const {
  if (s.has(name()) || !find_copy(*s.analysis, s.source)) return {};
  return {{{{"rows_per_pass", 8}}}, {{{"rows_per_pass", 16}}}, {{{"rows_per_pass", 4}}}, {{{"rows_per_pass", 32}}}};
}

Expected<Variant> TileTranspose::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  auto c = find_copy(a, s.source);
  if (!c) return Error{"tile-transpose does not apply: not a 2-D copy read along x and written along y"};
  std::string tile = helper_name(a.name, "tile");
  std::string ind = indentation_at(s.source, c->begin);
  std::string xt = c->x->type, yt = c->y->type;
  // Phase 1 reads a 32x32 tile along x; phase 2 writes it along y. The
  // original index names and expressions are reused in both phases. The
  // block is 32 x R with R a constant of the variant, so both loops unroll
  // fully and a thread's 32 / R loads are all in flight at once.
  std::string code = fmt::format(
      "__shared__ {t} {tile}[32][33];\n"
      "{ind}#pragma unroll\n"
      "{ind}for (int stark_j = 0; stark_j < 32; stark_j += {R}) {{\n"
      "{ind}  {xt} {x} = blockIdx.x * 32 + threadIdx.x;\n"
      "{ind}  {yt} {y} = blockIdx.y * 32 + threadIdx.y + stark_j;\n"
      "{ind}  if ({x} < {W} && {y} < {H}) {tile}[threadIdx.y + stark_j][threadIdx.x] = {read};\n"
      "{ind}}}\n"
      "{ind}__syncthreads();\n"
      "{ind}#pragma unroll\n"
      "{ind}for (int stark_j = 0; stark_j < 32; stark_j += {R}) {{\n"
      "{ind}  {xt} {x} = blockIdx.x * 32 + threadIdx.y + stark_j;\n"
      "{ind}  {yt} {y} = blockIdx.y * 32 + threadIdx.x;\n"
      "{ind}  if ({x} < {W} && {y} < {H}) {write} = {tile}[threadIdx.x][threadIdx.y + stark_j];\n"
      "{ind}}}",
      fmt::arg("t", c->type), fmt::arg("tile", tile), fmt::arg("ind", ind), fmt::arg("xt", xt), fmt::arg("yt", yt),
      fmt::arg("x", c->x->var), fmt::arg("y", c->y->var), fmt::arg("W", c->x_bound), fmt::arg("H", c->y_bound),
      fmt::arg("read", c->read), fmt::arg("write", c->write), fmt::arg("R", p.get("rows_per_pass")));
  auto source = apply_edits(s.source, {{c->begin, c->end, code}});
  if (!source) return source.error();
  Variant v;
  v.kernel = s.kernel->id;
  v.source = *source;
  v.launch.block = {"32", std::to_string(p.get("rows_per_pass")), "1"};
  v.launch.grid = {fmt::format("ceil_div({}, 32)", c->x_bound), fmt::format("ceil_div({}, 32)", c->y_bound), "1"};
  return v;
}

}  // namespace stark::builtin
