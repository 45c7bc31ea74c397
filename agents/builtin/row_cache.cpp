#include "agents/builtin/row_cache.h"

#include <fmt/format.h>

#include <map>
#include <regex>
#include <set>

#include "agents/builtin/polish.h"
#include "agents/builtin/rewrite.h"

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
  static const std::regex header(
      R"(^for\s*\(\s*(?:const\s+)?([A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*)\s+(\w+)\s*=\s*threadIdx\.x\s*;\s*(\w+)\s*<\s*([^;]+?)\s*;\s*(\w+)\s*\+=\s*blockDim\.x\s*\)$)");
  std::vector<StridedLoop> out;
  for (const auto& l : a.loops) {
    std::smatch m;
    if (l.depth != 0 || !std::regex_match(l.header.text, m, header)) continue;
    if (m[2] != m[3] || m[2] != m[5]) continue;
    out.push_back({&l, m[1].str(), m[2].str(), m[4].str()});
  }
  return out;
}

/// The row to cache: a pointer to const never written, read as p[c] in at
/// least two strided loops with the same bound; the loops that read it.
struct Choice {
  std::string pointer;
  std::vector<StridedLoop> loops;
};

std::optional<Choice> choose(const KernelAnalysis& a, const std::string& source, std::string* why) {
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
  static const std::regex jumps(R"(\b(break|return|goto)\b)");
  for (const auto& l : best->loops) {
    if (l.bound != best->loops.front().bound) return fail("the row loops have different bounds");
    if (std::regex_search(body_text(source, *l.loop), jumps)) return fail("a row loop leaves early (break, return or goto)");
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

std::vector<Params> RowCache::candidates(const Subject& s) const {
  auto choice = s.has(name()) ? std::nullopt : choose(*s.analysis, s.source, nullptr);
  if (!choice) return {};
  // A cache that holds the longest captured row reads every row once and
  // never runs the tail loop: that K first, the usual sizes after it.
  std::vector<int64_t> sizes = {8, 4, 16};
  if (auto k = whole_row(s, choice->loops.front().bound)) {
    std::erase(sizes, *k);
    sizes.insert(sizes.begin(), *k);
  }
  std::vector<Params> out;
  for (int64_t k : sizes) out.push_back({{{"per_thread", k}}});
  return out;
}

Expected<Variant> RowCache::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  std::string why;
  auto choice = choose(a, s.source, &why);
  if (!choice) return Error{"row-cache does not apply: " + why};
  int64_t k = p.get("per_thread");
  std::string row = helper_name(a.name, "row");
  std::string slot = helper_name(a.name, "k");
  std::vector<Edit> edits;
  for (size_t i = 0; i < choice->loops.size(); ++i) {
    const StridedLoop& l = choice->loops[i];
    std::string indent = indentation_at(s.source, l.loop->header.begin);
    std::string body = body_text(s.source, *l.loop);
    std::string cached = std::regex_replace(body, std::regex(fmt::format(R"(\b{}\s*\[\s*{}\s*\])", choice->pointer, l.var)),
                                            fmt::format("{}[{}]", row, slot));
    std::string text;
    if (i == 0)  // the row's first K elements of this thread, all loads in flight
      text += fmt::format(
          "decltype(+{p}[0]) {row}[{k}];\n"
          "{ind}#pragma unroll\n"
          "{ind}for (int {slot} = 0; {slot} < {k}; ++{slot}) {{\n"
          "{ind}  const {t} {c} = threadIdx.x + {slot} * blockDim.x;\n"
          "{ind}  if ({c} < {n}) {row}[{slot}] = {p}[{c}];\n"
          "{ind}}}\n{ind}",
          fmt::arg("p", choice->pointer), fmt::arg("row", row), fmt::arg("k", k), fmt::arg("slot", slot),
          fmt::arg("ind", indent), fmt::arg("t", l.type), fmt::arg("c", l.var), fmt::arg("n", l.bound));
    text += fmt::format(
        "#pragma unroll\n"
        "{ind}for (int {slot} = 0; {slot} < {k}; ++{slot}) {{\n"
        "{ind}  {t} {c} = threadIdx.x + {slot} * blockDim.x;\n"
        "{ind}  if ({c} < {n}) {cached}\n"
        "{ind}}}\n"
        "{ind}for ({t} {c} = threadIdx.x + {k} * blockDim.x; {c} < {n}; {c} += blockDim.x) {body}",
        fmt::arg("ind", indent), fmt::arg("slot", slot), fmt::arg("k", k), fmt::arg("t", l.type), fmt::arg("c", l.var),
        fmt::arg("n", l.bound), fmt::arg("cached", indent_more(cached, "  ")), fmt::arg("body", body));
    edits.push_back({l.loop->header.begin, statement_end(s.source, l.loop->body.end), text});
  }
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(std::move(*source));
}

}  // namespace stark::builtin
