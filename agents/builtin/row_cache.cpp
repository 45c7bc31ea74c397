#include "agents/builtin/row_cache.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "agents/builtin/device_helpers.h"
#include "agents/builtin/rewrite.h"
#include "agents/builtin/value_reuse.h"
#include "core/cpp_tokens.h"
#include "core/text.h"

namespace stark::builtin {

namespace {

/// A depth-0 loop `for (T c = threadIdx.x; c < bound; c += blockDim.x) body`.
struct StridedLoop {
  const Loop* loop = nullptr;
  std::string type;  // without const
  std::string var;
  std::string bound;
};

/// A loop's body statement, to its end (the `;` of a body without braces).
std::string body_text(const std::string& source, const Loop& l) {
  int64_t end = statement_end(source, l.body.end);
  return source.substr(static_cast<size_t>(l.body.begin), static_cast<size_t>(end - l.body.begin));
}

std::vector<StridedLoop> strided_loops(const KernelAnalysis& a) {
  std::vector<StridedLoop> out;
  for (const auto& l : a.loops)
    if (l.depth == 0 && !l.var.empty() && l.stepped == l.var && l.compared == l.var && l.bound.valid() &&
        trim(l.init_value.text) == "threadIdx.x" && trim(l.step.text) == "blockDim.x")
      out.push_back({&l, l.var_type, l.var, l.bound.text});
  return out;
}

/// The row to cache: a pointer to const never written, read as p[c] in at
/// least two strided loops with the same bound; the loops that read it.
struct Choice {
  std::string pointer;
  std::vector<StridedLoop> loops;
};

std::optional<Choice> choose(const KernelAnalysis& a, std::string* why) {
  auto fail = [&](std::string reason) -> std::optional<Choice> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  auto loops = strided_loops(a);
  if (loops.size() < 2) return fail("fewer than two block-strided row loops");
  std::set<std::string> written;
  std::map<std::string, std::set<size_t>> reads;  // pointer -> strided loops reading p[c]
  for (const auto* list : {&a.accesses, &a.local_accesses})
    for (const Access& acc : *list) {
      if (acc.write) written.insert(acc.base);
      if (acc.write || !acc.const_pointee || acc.loop < 0) continue;
      for (size_t i = 0; i < loops.size(); ++i)
        if (loops[i].loop == &a.loops[static_cast<size_t>(acc.loop)] && acc.index.text == loops[i].var)
          reads[acc.base].insert(i);
    }
  std::optional<Choice> best;
  for (const auto& [pointer, in] : reads) {
    if (written.count(pointer) || in.size() < 2) continue;
    Choice c{pointer, {}};
    for (size_t i : in) c.loops.push_back(loops[i]);
    if (!best || c.loops.size() > best->loops.size()) best = c;
  }
  if (!best) return fail("no pointer to const read as p[c] in two or more row loops");
  for (const auto& l : best->loops) {
    if (l.bound != best->loops.front().bound) return fail("the row loops have different bounds");
    if (l.loop->exits) return fail("a row loop leaves early (break, return or goto)");
  }
  return best;
}

}  // namespace

namespace {

/// The smallest power of two K with K * block >= the longest captured row,
/// when the block is a constant and the row bound a parameter the captures
/// recorded; nullopt otherwise, or when the row needs more than 32 per thread.
std::optional<int64_t> whole_row(const Subject& s, const std::string& bound) {
  int64_t block = constant_block(s.launch);
  if (s.launch.block.size() != 1 || block <= 0) return std::nullopt;
  auto row = s.largest(bound);
  if (!row || *row <= 0) return std::nullopt;
  int64_t k = 1;
  while (k * block < *row) k *= 2;
  return k <= 32 ? std::optional(k) : std::nullopt;
}

}  // namespace

namespace {

/// Bytes of the row's elements, from the type its pointer points to: a
/// parameter's in every instantiation (one size for all), or a local's
/// (`const float* in = x + row * cols`); 0 where a type has no known size.
int element_bytes(const Subject& s, const std::string& pointer) {
  std::vector<std::string> types;
  for (const auto& inst : s.kernel->instantiations)
    for (const auto& p : inst.params)
      if (p.name == pointer) types.push_back(p.pointee);
  if (types.empty())
    for (const auto* list : {&s.analysis->accesses, &s.analysis->local_accesses})
      for (const Access& acc : *list)
        if (acc.base == pointer && types.empty()) types.push_back(acc.pointee);
  std::optional<int> bytes;
  for (const std::string& t : types) {
    auto b = known_scalar_size(t);
    if (!b || (bytes && *bytes != *b)) return 0;
    bytes = b;
  }
  return bytes.value_or(0);
}

/// Elements per 16-byte vector for the row, 0 when rows are not read as vectors.
int64_t vector_width(const Subject& s, const std::string& pointer) {
  int bytes = element_bytes(s, pointer);
  return bytes == 4 || bytes == 8 ? 16 / bytes : 0;
}

/// A pass that only stores one value per column, `out[c] = value;`: its
/// pointer and value; nullopt for any other pass.
std::optional<std::pair<std::string, std::string>> store_pass(const std::string& pass, const std::string& var,
                                                              const std::string& cached_pointer) {
  auto tokens = cpp_tokens(pass);
  auto text = [&](size_t k) { return token_text(pass, tokens[k]); };
  if (tokens.size() >= 2 && text(0) == "{" && text(tokens.size() - 1) == "}")
    tokens = {tokens.begin() + 1, tokens.end() - 1};
  // out [ c ] = value ;
  if (tokens.size() < 7 || text(1) != "[" || text(2) != var || text(3) != "]" || text(4) != "=" ||
      text(tokens.size() - 1) != ";")
    return std::nullopt;
  std::string out(text(0));
  if (out == cached_pointer || !(std::isalpha(static_cast<unsigned char>(out[0])) || out[0] == '_'))
    return std::nullopt;
  for (size_t k = 5; k + 1 < tokens.size(); ++k)
    if (text(k) == ";" || text(k) == "{" || text(k) == "}" || text(k) == out) return std::nullopt;
  size_t begin = tokens[5].begin, end = tokens[tokens.size() - 2].end;
  return std::pair{out, pass.substr(begin, end - begin)};
}

}  // namespace

std::vector<Params> RowCache::candidates(const Subject& s) const {
  auto choice = s.has(name()) ? std::nullopt : choose(*s.analysis, nullptr);
  if (!choice) return {};
  // A cache that holds the longest captured row reads every row once and
  // never runs the tail loop: that K first, the usual sizes after it.
  std::vector<int64_t> sizes = {8, 4, 16};
  if (auto k = whole_row(s, choice->loops.front().bound)) {
    std::erase(sizes, *k);
    sizes.insert(sizes.begin(), *k);
  }
  // A thread of a B-thread block gets at most 65536 / B registers (255 at
  // most). A cache of a quarter of them or more left too few for the rest:
  // per_thread=16 at block 1024 (64 registers) failed to launch on the H200
  // (bench/results/h200-2026-12-03-third-rows, layer_norm).
  if (int64_t block = constant_block(s.launch); block > 0)
    std::erase_if(sizes, [&](int64_t k) { return 4 * k >= std::min<int64_t>(255, 65536 / block); });
  if (sizes.empty()) return {};
  // Vector accesses where the element type allows them: on the H200 they
  // took softmax 8192x4096 from 67% to 88% of the copy bandwidth
  // (bench/lab/softmax_variants.cu). The plain cache of the first size stays
  // a candidate: the vector one needs the row 16-byte aligned to pay.
  int64_t width = vector_width(s, choice->pointer);
  std::vector<Params> out;
  for (int64_t k : sizes) {
    if (width > 0 && k % width == 0) out.push_back({{{"per_thread", k}, {"vector", width}}});
    if (k == sizes.front() || width == 0 || k % width != 0) out.push_back({{{"per_thread", k}}});
  }
  return out;
}

namespace {

/// The names and sizes one row-cache rewrite uses: the register array
/// (`row`, indexed by `slot`), the helpers of vector groups, and the column
/// slot `slot` holds.
struct CacheShape {
  std::string row, slot, load, store, column, group, values;
  int64_t k = 0, width = 0;
};

/// Each pass's body with the cached element in place of `pointer[c]`; a
/// costly call on the element in several passes (softmax's expf) computed
/// once and stored over the element (value_reuse.h).
std::vector<std::string> cached_passes(const Subject& s, const Choice& choice, const std::string& element) {
  std::vector<std::string> passes;
  for (const StridedLoop& l : choice.loops) {
    std::vector<TextEdit> edits;
    const int64_t begin = l.loop->body.begin;
    for (const auto* list : {&s.analysis->accesses, &s.analysis->local_accesses})
      for (const Access& acc : *list)
        if (acc.base == choice.pointer && trim(acc.index.text) == l.var && acc.expr.begin >= begin &&
            acc.expr.end <= l.loop->body.end)
          edits.push_back({acc.expr.begin - begin, acc.expr.end - begin, element});
    passes.push_back(*apply_edits(body_text(s.source, *l.loop), edits));  // accesses never overlap
  }
  auto unchanged = [&](const std::string& id, size_t first, size_t last) {
    int64_t begin = choice.loops[first].loop->header.begin;
    int64_t end = statement_end(s.source, choice.loops[last].loop->body.end);
    return !may_write(s.source.substr(static_cast<size_t>(begin), static_cast<size_t>(end - begin)), id);
  };
  if (auto reused = reuse_costly_call(passes, element, unchanged)) passes = std::move(*reused);
  return passes;
}

/// The first pass's loads: a thread's first K elements of the row, all in
/// flight (element by element, or by the vector-group helper).
std::string load_row(const Choice& choice, const StridedLoop& l, const CacheShape& c, const std::string& indent) {
  if (c.width == 0)
    return fmt::format(
        "decltype(+{p}[0]) {row}[{k}];\n"
        "{ind}#pragma unroll\n"
        "{ind}for (int {slot} = 0; {slot} < {k}; ++{slot}) {{\n"
        "{ind}  const {t} {c} = {column};\n"
        "{ind}  if ({c} < {n}) {row}[{slot}] = {p}[{c}];\n"
        "{ind}}}\n{ind}",
        fmt::arg("p", choice.pointer), fmt::arg("row", c.row), fmt::arg("k", c.k), fmt::arg("slot", c.slot),
        fmt::arg("ind", indent), fmt::arg("t", l.type), fmt::arg("c", l.var), fmt::arg("n", l.bound),
        fmt::arg("column", c.column));
  return fmt::format("decltype(+{p}[0]) {row}[{k}];\n{ind}{load}<{k}, {w}>({p}, {n}, {row});\n{ind}",
                     fmt::arg("p", choice.pointer), fmt::arg("row", c.row), fmt::arg("k", c.k), fmt::arg("ind", indent),
                     fmt::arg("load", c.load), fmt::arg("w", c.width), fmt::arg("n", l.bound));
}

/// One pass over the cached slots: a vector store per group of `width`
/// values where the pass only stores `out[c] = value`, else the pass's body
/// once per slot.
std::string cached_pass(const Choice& choice, const StridedLoop& l, const CacheShape& c, const std::string& cached,
                        const std::string& indent) {
  auto stored = c.width == 0 ? std::nullopt : store_pass(cached, l.var, choice.pointer);
  if (stored)
    return fmt::format(
        "#pragma unroll\n"
        "{ind}for (int {g} = 0; {g} < {k} / {w}; ++{g}) {{\n"
        "{ind}  decltype(+{out}[0]) {vals}[{w}];\n"
        "{ind}  #pragma unroll\n"
        "{ind}  for (int {slot} = {g} * {w}; {slot} < ({g} + 1) * {w}; ++{slot}) {{\n"
        "{ind}    {t} {c} = {column};\n"
        "{ind}    if ({c} < {n}) {vals}[{slot} % {w}] = {value};\n"
        "{ind}  }}\n"
        "{ind}  {store}<{w}>({out}, (threadIdx.x + static_cast<long long>({g}) * blockDim.x) * {w}, {n}, {vals});\n"
        "{ind}}}\n",
        fmt::arg("ind", indent), fmt::arg("g", c.group), fmt::arg("k", c.k), fmt::arg("w", c.width),
        fmt::arg("out", stored->first), fmt::arg("vals", c.values), fmt::arg("slot", c.slot), fmt::arg("t", l.type),
        fmt::arg("c", l.var), fmt::arg("column", c.column), fmt::arg("n", l.bound), fmt::arg("value", stored->second),
        fmt::arg("store", c.store));
  return fmt::format(
      "#pragma unroll\n"
      "{ind}for (int {slot} = 0; {slot} < {k}; ++{slot}) {{\n"
      "{ind}  {t} {c} = {column};\n"
      "{ind}  if ({c} < {n}) {cached}\n"
      "{ind}}}\n",
      fmt::arg("ind", indent), fmt::arg("slot", c.slot), fmt::arg("k", c.k), fmt::arg("t", l.type),
      fmt::arg("c", l.var), fmt::arg("n", l.bound), fmt::arg("cached", indent_more(cached, "  ")),
      fmt::arg("column", c.column));
}

}  // namespace

Expected<Variant> RowCache::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  std::string why;
  auto choice = choose(a, &why);
  if (!choice) return Error{"row-cache does not apply: " + why};
  CacheShape c;
  c.k = p.get("per_thread");
  c.width = p.get_or("vector", 0);
  if (c.width != 0 && (c.width < 2 || c.k % c.width != 0 || c.width != vector_width(s, choice->pointer)))
    return Error{
        fmt::format("row-cache: vector={} does not fit per_thread={} and this row's element type", c.width, c.k)};
  c.row = helper_name(a.name, "row");
  c.slot = helper_name(a.name, "k");
  c.load = helper_name(a.name, "load_row");
  c.store = helper_name(a.name, "store_group");
  c.group = helper_name(a.name, "group");
  c.values = helper_name(a.name, "values");
  // Slot k's column: block-strided, or in groups of `width` adjacent ones.
  c.column = c.width == 0 ? fmt::format("threadIdx.x + {} * blockDim.x", c.slot)
                          : fmt::format("(threadIdx.x + {s} / {w} * blockDim.x) * {w} + {s} % {w}",
                                        fmt::arg("s", c.slot), fmt::arg("w", c.width));
  std::vector<std::string> passes = cached_passes(s, *choice, fmt::format("{}[{}]", c.row, c.slot));
  std::vector<TextEdit> edits;
  for (size_t i = 0; i < choice->loops.size(); ++i) {
    const StridedLoop& l = choice->loops[i];
    std::string indent = indentation_at(s.source, l.loop->header.begin);
    std::string text = i == 0 ? load_row(*choice, l, c, indent) : "";
    text += cached_pass(*choice, l, c, passes[i], indent);
    // Elements past K x block keep the original loop.
    text += fmt::format("{ind}for ({t} {c} = threadIdx.x + {k} * blockDim.x; {c} < {n}; {c} += blockDim.x) {body}",
                        fmt::arg("ind", indent), fmt::arg("k", c.k), fmt::arg("t", l.type), fmt::arg("c", l.var),
                        fmt::arg("n", l.bound), fmt::arg("body", body_text(s.source, *l.loop)));
    edits.push_back({l.loop->header.begin, statement_end(s.source, l.loop->body.end), text});
  }
  if (c.width != 0) edits.push_back(before_kernel(a, row_group_helpers(c.load, c.store)));
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(std::move(*source));
}

}  // namespace stark::builtin
