#include "agents/builtin/tile_matmul.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/cpp_tokens.h"
#include "core/text.h"

#include "agents/builtin/rewrite.h"

namespace stark::builtin {

namespace {

/// Whether `name` is one of the tokens of `text` (an index expression).
bool mentions(const std::string& text, const std::string& name) {
  for (const CppToken& t : cpp_tokens(text))
    if (token_text(text, t) == name) return true;
  return false;
}

/// The shape of a naive matmul, with the user's expressions.
struct Matmul {
  const ThreadIndex* col = nullptr;  // x
  const ThreadIndex* row = nullptr;  // y
  std::string m, n, k;               // bounds of row, col and the loop
  std::string a, b;                  // the two loads of the product, A by row, B by col
  std::string acc, acc_type, type, epilogue;
  int64_t begin = 0, end = 0;
};

std::optional<Matmul> find_matmul(const KernelAnalysis& a, const std::string& source) {
  Matmul mm;
  mm.col = a.index('x');
  mm.row = a.index('y');
  if (!mm.col || !mm.row || a.indices.size() != 2 || a.loops.size() != 1 || !a.atomics.empty() || a.uses_shared_memory)
    return std::nullopt;
  const Loop& l = a.loops[0];
  if (l.depth != 0 || !l.unit_step || l.init_value.text != "0" || l.reductions.size() != 1 || l.writes_memory)
    return std::nullopt;
  const Reduction& r = l.reductions[0];
  if (r.op != ReduceOp::Sum) return std::nullopt;
  for (const auto& g : a.guards) {
    if (g.var == mm.row->var) mm.m = g.bound.text;
    if (g.var == mm.col->var) mm.n = g.bound.text;
  }
  if (mm.m.empty() || mm.n.empty()) return std::nullopt;
  mm.k = l.bound.text;
  // The two loads of the product, told apart by the index they use.
  std::vector<const Access*> loads;
  for (const auto& acc : a.accesses)
    if (acc.loop == 0 && !acc.write) loads.push_back(&acc);
  if (loads.size() != 2) return std::nullopt;
  for (const Access* ld : loads) {
    bool by_row = mentions(ld->index.text, mm.row->var), by_col = mentions(ld->index.text, mm.col->var);
    if (!mentions(ld->index.text, l.var) || by_row == by_col) return std::nullopt;
    (by_row ? mm.a : mm.b) = ld->expr.text;
  }
  if (mm.a.empty() || mm.b.empty()) return std::nullopt;
  // The value must be exactly the product of the two loads.
  std::string value = r.value.text;
  value.erase(std::remove_if(value.begin(), value.end(), ::isspace), value.end());
  auto squash = [](std::string s) {
    s.erase(std::remove_if(s.begin(), s.end(), ::isspace), s.end());
    return s;
  };
  if (value != squash(mm.a) + "*" + squash(mm.b) && value != squash(mm.b) + "*" + squash(mm.a)) return std::nullopt;
  mm.acc = r.acc;
  // The accumulator starts at zero, declared before the loop.
  if (!r.starts_at_zero || r.acc_type.empty() || r.acc_declaration.begin > l.header.begin) return std::nullopt;
  mm.acc_type = r.acc_type;
  mm.type = mm.acc_type;
  // The epilogue: every statement after the loop, kept verbatim.
  int64_t after = statement_end(source, l.body.end);
  int64_t body_end = a.body.end - 1;  // before the kernel's closing brace
  // A loop inside `if (row < m && col < n) { ... }`: the epilogue ends at that
  // block's closing brace, and the block must be the body's last statement.
  int64_t epilogue_end = body_end;
  for (const auto& g : a.guards) {
    if (g.early_return || !g.then_body.valid() || g.then_body.begin > l.header.begin || l.body.end > g.then_body.end)
      continue;
    // then_body is the braces' contents: its end is the closing brace.
    if (static_cast<size_t>(g.then_body.end) >= source.size() || source[static_cast<size_t>(g.then_body.end)] != '}' ||
        a.top_statements.empty() || a.top_statements.back().begin != g.statement.begin)
      return std::nullopt;
    epilogue_end = std::min(epilogue_end, g.then_body.end);
  }
  mm.epilogue = std::string(
      trim(std::string_view(source).substr(static_cast<size_t>(after), static_cast<size_t>(epilogue_end - after))));
  if (mm.epilogue.empty() || mm.epilogue.find("return") != std::string::npos) return std::nullopt;
  mm.begin = std::min(mm.col->statement.begin, mm.row->statement.begin);
  mm.end = body_end;
  return mm;
}

}  // namespace

std::vector<Params> TileMatmul::candidates(const Subject& s) const {
  if (s.has(name()) || !find_matmul(*s.analysis, s.source)) return {};
  std::vector<Params> out;
  for (auto [bm, bn, bk, tm, tn] : {std::tuple{128, 128, 8, 8, 8},
                                    {64, 64, 8, 4, 4},
                                    {128, 64, 8, 8, 4},
                                    {64, 128, 16, 4, 8},
                                    {128, 128, 16, 8, 8}})
    out.push_back({{{"bm", bm}, {"bn", bn}, {"bk", bk}, {"tm", tm}, {"tn", tn}}});
  return out;
}

/// The tiled dot products that replace the kernel's: `{bm}`x`{bn}` output
/// tiles, k in steps of `{bk}` through shared memory, `{tm}`x`{tn}`
/// outputs per thread, the kernel's own epilogue per output.
constexpr const char* kTiledMatmul =
    "// Generated by STARK: {bm}x{bn} output tiles, k in steps of {bk}, {tm}x{tn} outputs per thread.\n"
    "{i}__shared__ {t} {as}[{bk}][{bm}];\n"
    "{i}__shared__ {t} {bs}[{bk}][{bn}];\n"
    "{i}const int stark_tid = threadIdx.y * blockDim.x + threadIdx.x;\n"
    "{i}const int stark_threads = blockDim.x * blockDim.y;\n"
    "{i}const int stark_row0 = blockIdx.y * {bm}, stark_col0 = blockIdx.x * {bn};\n"
    "{i}{t} stark_acc[{tm}][{tn}];\n"
    "{i}#pragma unroll\n"
    "{i}for (int stark_r = 0; stark_r < {tm}; ++stark_r)\n"
    "{i}  #pragma unroll\n"
    "{i}  for (int stark_c = 0; stark_c < {tn}; ++stark_c) stark_acc[stark_r][stark_c] = static_cast<{t}>(0);\n"
    "{i}for ({kt} stark_k0 = 0; stark_k0 < {K}; stark_k0 += {bk}) {{\n"
    "{i}  for (int stark_e = stark_tid; stark_e < {bm} * {bk}; stark_e += stark_threads) {{\n"
    "{i}    const int stark_r = stark_e / {bk}, stark_kk = stark_e % {bk};\n"
    "{i}    {rt} {row} = stark_row0 + stark_r;\n"
    "{i}    {kt} {kv} = stark_k0 + stark_kk;\n"
    "{i}    {as}[stark_kk][stark_r] = ({row} < {M} && {kv} < {K}) ? static_cast<{t}>({A}) : static_cast<{t}>(0);\n"
    "{i}  }}\n"
    "{i}  for (int stark_e = stark_tid; stark_e < {bk} * {bn}; stark_e += stark_threads) {{\n"
    "{i}    const int stark_kk = stark_e / {bn}, stark_c = stark_e % {bn};\n"
    "{i}    {kt} {kv} = stark_k0 + stark_kk;\n"
    "{i}    {ct} {col} = stark_col0 + stark_c;\n"
    "{i}    {bs}[stark_kk][stark_c] = ({kv} < {K} && {col} < {N}) ? static_cast<{t}>({B}) : static_cast<{t}>(0);\n"
    "{i}  }}\n"
    "{i}  __syncthreads();\n"
    "{i}  #pragma unroll\n"
    "{i}  for (int stark_kk = 0; stark_kk < {bk}; ++stark_kk) {{\n"
    "{i}    {t} stark_a[{tm}], stark_b[{tn}];\n"
    "{i}    #pragma unroll\n"
    "{i}    for (int stark_r = 0; stark_r < {tm}; ++stark_r) stark_a[stark_r] = {as}[stark_kk][threadIdx.y + stark_r "
    "* {ty}];\n"
    "{i}    #pragma unroll\n"
    "{i}    for (int stark_c = 0; stark_c < {tn}; ++stark_c) stark_b[stark_c] = {bs}[stark_kk][threadIdx.x + stark_c "
    "* {tx}];\n"
    "{i}    #pragma unroll\n"
    "{i}    for (int stark_r = 0; stark_r < {tm}; ++stark_r)\n"
    "{i}      #pragma unroll\n"
    "{i}      for (int stark_c = 0; stark_c < {tn}; ++stark_c) stark_acc[stark_r][stark_c] += stark_a[stark_r] * "
    "stark_b[stark_c];\n"
    "{i}  }}\n"
    "{i}  __syncthreads();\n"
    "{i}}}\n"
    "{i}#pragma unroll\n"
    "{i}for (int stark_r = 0; stark_r < {tm}; ++stark_r) {{\n"
    "{i}  #pragma unroll\n"
    "{i}  for (int stark_c = 0; stark_c < {tn}; ++stark_c) {{\n"
    "{i}    {rt} {row} = stark_row0 + threadIdx.y + stark_r * {ty};\n"
    "{i}    {ct} {col} = stark_col0 + threadIdx.x + stark_c * {tx};\n"
    "{i}    if ({row} < {M} && {col} < {N}) {{\n"
    "{i}      {at} {acc} = stark_acc[stark_r][stark_c];\n"
    "{i}      {epilogue}\n"
    "{i}    }}\n"
    "{i}  }}\n"
    "{i}}}\n";

Expected<Variant> TileMatmul::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  auto mm = find_matmul(a, s.source);
  if (!mm) return Error{"tile-matmul does not apply: not a dot product per output element"};
  int64_t bm = p.get("bm"), bn = p.get("bn"), bk = p.get("bk"), tm = p.get("tm"), tn = p.get("tn");
  if (bm % tm || bn % tn || (bm / tm) * (bn / tn) > 1024) return Error{"tile-matmul: inconsistent tile parameters"};
  const Loop& loop = a.loops[0];
  std::string ind = indentation_at(s.source, mm->begin);
  std::string rt = mm->row->type;
  std::string ct = mm->col->type;
  std::string kt = loop.var_type;
  std::string as = helper_name(a.name, "a_tile"), bs = helper_name(a.name, "b_tile");
  std::string code = fmt::format(
      fmt::runtime(kTiledMatmul), fmt::arg("bm", bm), fmt::arg("bn", bn), fmt::arg("bk", bk), fmt::arg("tm", tm),
      fmt::arg("tn", tn), fmt::arg("ty", bm / tm), fmt::arg("tx", bn / tn), fmt::arg("i", ind), fmt::arg("t", mm->type),
      fmt::arg("as", as), fmt::arg("bs", bs), fmt::arg("kt", kt), fmt::arg("rt", rt), fmt::arg("ct", ct),
      fmt::arg("row", mm->row->var), fmt::arg("col", mm->col->var), fmt::arg("kv", loop.var), fmt::arg("M", mm->m),
      fmt::arg("N", mm->n), fmt::arg("K", mm->k), fmt::arg("A", mm->a), fmt::arg("B", mm->b),
      fmt::arg("at", mm->acc_type), fmt::arg("acc", mm->acc), fmt::arg("epilogue", mm->epilogue));
  auto source = apply_edits(s.source, {{mm->begin, mm->end, code}});
  if (!source) return source.error();
  Variant v;
  v.kernel = s.kernel->id;
  v.source = *source;
  v.launch.block = {std::to_string(bn / tn), std::to_string(bm / tm), "1"};
  v.launch.grid = {fmt::format("ceil_div({}, {})", mm->n, bn), fmt::format("ceil_div({}, {})", mm->m, bm), "1"};
  return v;
}

}  // namespace stark::builtin
