#include "agents/builtin/tile_stencil.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>

#include "agents/builtin/polynomial.h"
#include "agents/builtin/rewrite.h"
#include "core/cpp_tokens.h"

namespace stark::builtin {

namespace {

/// Neighbours further away than this are not a stencil this tiles.
constexpr int64_t kMaxHalo = 2;

struct Read {
  const Access* access = nullptr;
  int64_t dr = 0, dc = 0;  // rows and columns from the thread's point
};

struct Stencil {
  const ThreadIndex* x = nullptr;
  const ThreadIndex* y = nullptr;
  std::string width, height;  // x's and y's bounds; the width is the row pitch
  std::string pointer;        // the const input read around the point
  std::vector<Read> reads;
  int64_t halo = 0;
};

/// "cols" or "shape.cols" on a parameter: a bound the tile load can use
/// before the kernel's own statements run.
bool parameter_path(const KernelAnalysis& a, const std::string& text) {
  auto tokens = cpp_tokens(text);
  if (tokens.size() % 2 == 0) return false;
  for (size_t k = 0; k < tokens.size(); ++k) {
    std::string_view t = token_text(text, tokens[k]);
    bool name = !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_');
    if (k % 2 == 0 ? !name : t != ".") return false;
  }
  return a.param(token_text(text, tokens.front())) != nullptr;
}

/// Whether the kernel body assigns to the variable after declaring it.
bool assigned(const KernelAnalysis& a, const std::string& name) {
  return std::find(a.assigned.begin(), a.assigned.end(), name) != a.assigned.end();
}

/// Top-level integer locals with an index-like initialiser (`size_t i =
/// static_cast<size_t>(r) * cols + c;`), as polynomials over the names.
std::map<std::string, Polynomial> linear_locals(const KernelAnalysis& a) {
  std::map<std::string, Polynomial> known;
  for (const LocalDeclaration& d : a.local_declarations) {
    if (d.name == a.index('x')->var || d.name == a.index('y')->var) continue;
    if (auto p = parse_polynomial(d.init.text, known)) known[d.name] = *p;
  }
  return known;
}

std::optional<Stencil> find_stencil(const KernelAnalysis& a, std::string* why) {
  auto fail = [&](std::string reason) -> std::optional<Stencil> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  Stencil s;
  s.x = a.index('x');
  s.y = a.index('y');
  if (!s.x || !s.y || a.indices.size() != 2) return fail("not a kernel with one x and one y thread index");
  if (!a.loops.empty() || !a.atomics.empty() || a.uses_shared_memory || a.uses_sync || a.uses_warp_ops)
    return fail("loops, atomics or cooperating threads");
  for (const auto& g : a.guards) {
    if (g.var == s.x->var) s.width = g.bound.text;
    if (g.var == s.y->var) s.height = g.bound.text;
  }
  if (!parameter_path(a, s.width) || !parameter_path(a, s.height))
    return fail("the x and y bounds are not parameters (or their fields)");
  auto root = [](const std::string& path) { return path.substr(0, path.find('.')); };
  for (const std::string& name : {s.x->var, s.y->var, root(s.width), root(s.height)})
    if (assigned(a, name)) return fail("'" + name + "' changes after it is set");

  auto known = linear_locals(a);
  std::erase_if(known, [&](const auto& local) { return assigned(a, local.first); });  // its definition no longer holds
  Polynomial point = Polynomial::name(s.y->var) * Polynomial::name(s.width) + Polynomial::name(s.x->var);
  std::set<std::string> written;
  for (const auto& acc : a.accesses)
    if (acc.write) written.insert(acc.base);
  std::map<std::string, std::vector<Read>> by_pointer;
  std::set<std::string> refused;
  for (const auto& acc : a.accesses) {
    const Param* p = a.param(acc.base);
    if (acc.write || !p || p->kind != ParamKind::Pointer || !p->is_const || written.count(acc.base)) continue;
    auto index = parse_polynomial(acc.index.text, known);
    std::optional<Read> read;
    if (index) {
      Polynomial d = *index - point;
      Read r{&acc, d.at({s.width}), d.at({})};
      if (d == Polynomial::constant(r.dr) * Polynomial::name(s.width) + Polynomial::constant(r.dc) &&
          std::abs(r.dr) <= kMaxHalo && std::abs(r.dc) <= kMaxHalo)
        read = r;
    }
    if (!read) refused.insert(acc.base);  // every read of a tiled input must come from the tile
    else by_pointer[acc.base].push_back(*read);
  }
  for (auto& [pointer, reads] : by_pointer) {
    if (refused.count(pointer)) continue;
    std::set<std::pair<int64_t, int64_t>> offsets;
    for (const Read& r : reads) offsets.insert({r.dr, r.dc});
    // Three points or more, the thread's own among them (so the original
    // reads every point of the rows x cols matrix the tile loads from).
    if (offsets.size() < 3 || !offsets.count({0, 0})) continue;
    if (!s.pointer.empty() && reads.size() <= s.reads.size()) continue;
    s.pointer = pointer;
    s.reads = reads;
  }
  if (s.pointer.empty())
    return fail(
        "no const input read at its own point and at two or more neighbours (in[i], in[i - cols], in[i + 1]...)");
  for (const Read& r : s.reads) s.halo = std::max({s.halo, std::abs(r.dr), std::abs(r.dc)});
  return s;
}

/// "threadIdx.y + 2", "threadIdx.y" or "threadIdx.y - 1".
std::string plus(const std::string& base, int64_t k) {
  if (k == 0) return base;
  return fmt::format("{} {} {}", base, k < 0 ? '-' : '+', std::abs(k));
}

/// The shared-memory tile of a block of bx x by threads covering `rows`
/// points each down a column, with its halo, and the code that fills it.
/// The tile's elements are dealt to the threads in order (coalesced along its
/// rows); every load goes into a register first, so a thread's loads are all
/// in flight at once, and the shared-memory stores follow.
std::string tile_load(const Stencil& st, const std::string& type, int64_t bx, int64_t by, int64_t rows,
                      const std::string& ind) {
  const int64_t h = st.halo, tile_rows = by * rows + 2 * h, tile_cols = bx + 2 * h;
  const int64_t elements = tile_rows * tile_cols, threads = bx * by;
  return fmt::format(
      "\n{ind}// Generated by STARK: the block's points with a halo of {h}, loaded into shared memory once.\n"
      "{ind}__shared__ {t} stark_tile[{TR}][{TC}];\n"
      "{ind}{{\n"
      "{ind}  const long long stark_corner = (static_cast<long long>(blockIdx.y) * {RB} - {h}) * ({W}) +\n"
      "{ind}                                 static_cast<long long>(blockIdx.x) * {BX} - {h};\n"
      "{ind}  const long long stark_end = static_cast<long long>({H}) * ({W});\n"
      "{ind}  const int stark_me = threadIdx.y * {BX} + threadIdx.x;\n"
      "{ind}  {t} stark_held[{K}];\n"
      "{ind}  #pragma unroll\n"
      "{ind}  for (int stark_k = 0; stark_k < {K}; ++stark_k) {{\n"
      "{ind}    const int stark_e = stark_me + stark_k * {T};\n"
      "{ind}    const long long stark_at = stark_corner + static_cast<long long>(stark_e / {TC}) * ({W}) + stark_e % "
      "{TC};\n"
      "{ind}    stark_held[stark_k] = stark_e < {N} && stark_at >= 0 && stark_at < stark_end ? {P}[stark_at] : {t}();\n"
      "{ind}  }}\n"
      "{ind}  #pragma unroll\n"
      "{ind}  for (int stark_k = 0; stark_k < {K}; ++stark_k) {{\n"
      "{ind}    const int stark_e = stark_me + stark_k * {T};\n"
      "{ind}    if (stark_e < {N}) stark_tile[stark_e / {TC}][stark_e % {TC}] = stark_held[stark_k];\n"
      "{ind}  }}\n"
      "{ind}}}\n"
      "{ind}__syncthreads();",
      fmt::arg("ind", ind), fmt::arg("h", h), fmt::arg("t", type), fmt::arg("TR", tile_rows), fmt::arg("TC", tile_cols),
      fmt::arg("BX", bx), fmt::arg("RB", by * rows), fmt::arg("W", st.width), fmt::arg("H", st.height),
      fmt::arg("P", st.pointer), fmt::arg("K", (elements + threads - 1) / threads), fmt::arg("T", threads),
      fmt::arg("N", elements));
}

}  // namespace

std::vector<Params> TileStencil::candidates(const Subject& s) const {
  // Only from the original launch shape: the tile sets its own.
  if (!s.launch.empty() || s.has(name()) || !find_stencil(*s.analysis, nullptr)) return {};
  std::vector<Params> out;
  for (auto [x, y, r] : {std::tuple{32, 8, 4}, {32, 4, 8}, {32, 8, 1}, {64, 4, 4}})
    out.push_back({{{"x", x}, {"y", y}, {"rows_per_thread", r}}});
  return out;
}

Expected<Variant> TileStencil::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  std::string why;
  auto st = find_stencil(a, &why);
  if (!st) return Error{"tile-stencil does not apply: " + why};
  int64_t bx = p.get("x"), by = p.get("y"), rows = p.get_or("rows_per_thread", 1);
  if (bx <= 0 || by <= 0 || rows <= 0 || bx * by > 1024) return Error{"tile-stencil: bad block shape " + p.describe()};
  const int64_t h = st->halo;
  std::string type = element_type(a, st->pointer);
  // Names local to the kernel's body: "stark_" keeps them clear of the user's.
  const std::string tile = "stark_tile", j = "stark_j";

  // Edits inside the body: reads from the tile; with R rows per thread the
  // y index steps through the block's R row bands and `return` ends one point.
  const int64_t inner_begin = a.body.begin + 1, inner_end = a.body.end - 1;
  std::vector<TextEdit> edits;
  std::string row_of_point = rows > 1 ? fmt::format("{} * {} + threadIdx.y", j, by) : "threadIdx.y";
  for (const Read& r : st->reads)
    edits.push_back({r.access->expr.begin - inner_begin, r.access->expr.end - inner_begin,
                     fmt::format("{}[{}][{}]", tile, plus(row_of_point, h + r.dr), plus("threadIdx.x", h + r.dc))});
  std::string inner = s.source.substr(static_cast<size_t>(inner_begin), static_cast<size_t>(inner_end - inner_begin));
  if (rows > 1) {
    const Snippet& yst = st->y->statement;
    auto block_y = yst.text.find("blockIdx.y");
    if (block_y == std::string::npos || yst.text.find("blockIdx.y", block_y + 1) != std::string::npos)
      return Error{"tile-stencil: cannot find blockIdx.y once in '" + yst.text + "'"};
    int64_t b = yst.begin - inner_begin + static_cast<int64_t>(block_y);
    edits.push_back({b, b + 10, fmt::format("({} * {} + {})", "blockIdx.y", rows, j)});
    for (const Snippet& r : a.kernel_returns)
      if (r.begin >= inner_begin && r.end <= inner_end)
        edits.push_back({r.begin - inner_begin, r.end - inner_begin, "continue"});
  }
  auto edited = apply_edits(inner, edits);
  if (!edited) return edited.error();

  std::string ind = indentation_at(s.source, a.top_statements.front().begin);
  std::string load = tile_load(*st, type, bx, by, rows, ind);
  std::string body = "{" + load;
  if (rows > 1) {
    std::string text = *edited;
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    body += fmt::format(
        "\n{ind}#pragma unroll\n{ind}for (int {j} = 0; {j} < {R}; ++{j}) {{  // the thread's points, one per row "
        "band{text}\n{ind}}}\n",
        fmt::arg("ind", ind), fmt::arg("j", j), fmt::arg("R", rows), fmt::arg("text", indent_more(text, "  ")));
  } else {
    body += *edited;
  }
  body += "}";
  auto source = apply_edits(s.source, {{a.body.begin, a.body.end, body}});
  if (!source) return source.error();
  Variant v = s.with_source(std::move(*source));
  v.launch.block = {std::to_string(bx), std::to_string(by), "1"};
  v.launch.grid = {fmt::format("ceil_div({}, {})", st->width, bx),
                   fmt::format("ceil_div({}, {})", st->height, by * rows), "grid.z"};
  return v;
}

}  // namespace stark::builtin
