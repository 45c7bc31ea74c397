#include "agents/builtin/polish.h"

#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <regex>
#include <set>

#include "agents/builtin/guarded_body.h"
#include "agents/builtin/rewrite.h"

namespace stark::builtin {

namespace {

int64_t parse_int(const std::string& text) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && ptr == text.data() + text.size() ? v : 0;
}

}  // namespace

int64_t constant_block(const LaunchOverride& launch) {
  if (launch.block.empty()) return 0;
  int64_t total = 1;
  for (const auto& b : launch.block) {
    int64_t v = parse_int(b);
    if (v <= 0) return 0;
    total *= v;
  }
  return total;
}

std::vector<Params> LaunchShape::candidates(const Subject& s) const {
  // Only the original's shape: the structural strategies set their own.
  if (!s.launch.empty() || s.has(name()) || !guarded_body(*s.analysis, s.source)) return {};
  return {{{{"block", 512}}}, {{{"block", 128}}}, {{{"block", 1024}}}, {{{"block", 256}}}};
}

Expected<Variant> LaunchShape::apply(const Subject& s, const Params& p) const {
  if (!guarded_body(*s.analysis, s.source)) return Error{"block-size: not a 1-D kernel with a bound check"};
  Variant v = s.with_source(s.source);
  int64_t b = p.get("block");
  v.launch.block = {std::to_string(b)};
  v.launch.grid = {fmt::format("ceil_div({}, {})", s.extent('x'), b)};
  return v;
}

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

std::vector<Params> BlockShape2D::candidates(const Subject& s) const {
  // Only the original's shape: the structural strategies set their own.
  if (!s.launch.empty() || s.has(name()) || not_pointwise_2d(*s.analysis)) return {};
  return {{{{"x", 32}, {"y", 8}}}, {{{"x", 64}, {"y", 4}}}, {{{"x", 32}, {"y", 4}}}, {{{"x", 128}, {"y", 2}}}};
}

Expected<Variant> BlockShape2D::apply(const Subject& s, const Params& p) const {
  if (auto why = not_pointwise_2d(*s.analysis)) return Error{"block-shape does not apply: " + *why};
  Variant v = s.with_source(s.source);
  int64_t bx = p.get("x"), by = p.get("y");
  v.launch.block = {std::to_string(bx), std::to_string(by), "1"};
  v.launch.grid = {fmt::format("ceil_div({}, {})", s.extent('x'), bx), fmt::format("ceil_div({}, {})", s.extent('y'), by),
                   "grid.z"};
  return v;
}

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
  auto source = apply_edits(s.source, {{g.end, g.end, fmt::format(" __launch_bounds__({}, {})", p.get("threads"), p.get("min_blocks"))}});
  if (!source) return source.error();
  return s.with_source(*source);
}

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

namespace {

/// Types __ldg has an overload for.
bool ldg_type(const std::string& t) {
  static const std::set<std::string> kTypes = {
      "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int", "unsigned",
      "long long", "unsigned long long", "float", "double", "char2", "char4", "uchar2", "uchar4", "short2", "short4",
      "ushort2", "ushort4", "int2", "int4", "uint2", "uint4", "longlong2", "ulonglong2", "float2", "float4", "double2"};
  return kTypes.count(t) > 0;
}

/// Reads of parameters declared `const T* __restrict__` that no access writes.
std::vector<const Access*> read_only_reads(const KernelAnalysis& a) {
  std::vector<const Access*> out;
  for (const auto& acc : a.accesses) {
    const Param* p = a.param(acc.base);
    if (acc.write || !p || p->kind != ParamKind::Pointer || !p->is_restrict || !p->is_const || !ldg_type(p->pointee))
      continue;
    if (acc.expr.text.rfind("__ldg", 0) == 0) continue;
    out.push_back(&acc);
  }
  return out;
}

}  // namespace

std::vector<Params> ReadOnlyLoads::candidates(const Subject& s) const {
  if (s.has(name()) || read_only_reads(*s.analysis).empty()) return {};
  return {Params{}};
}

Expected<Variant> ReadOnlyLoads::apply(const Subject& s, const Params&) const {
  // Insertions only, so a load inside another's index nests: p[q[i]] -> __ldg(&p[__ldg(&q[i])]).
  std::vector<Edit> edits;
  for (const Access* acc : read_only_reads(*s.analysis)) {
    edits.push_back({acc->expr.begin, acc->expr.begin, "__ldg(&"});
    edits.push_back({acc->expr.end, acc->expr.end, ")"});
  }
  if (edits.empty()) return Error{"ldg: no load through a const __restrict__ pointer"};
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(*source);
}

std::vector<Params> RestrictPointers::candidates(const Subject& s) const {
  if (s.has(name())) return {};
  int pointers = 0;
  for (const auto& prm : s.analysis->params) pointers += prm.kind == ParamKind::Pointer && !prm.is_restrict;
  if (pointers < 2) return {};
  return {Params{}};
}

Expected<Variant> RestrictPointers::apply(const Subject& s, const Params&) const {
  // "T* name" / "T *name" in the declaration: add __restrict__ before the name.
  std::vector<Edit> edits;
  const std::string& decl = s.analysis->declaration.text;
  for (const auto& prm : s.analysis->params) {
    if (prm.kind != ParamKind::Pointer || prm.is_restrict) continue;
    std::regex re(fmt::format(R"(\*\s*({})\s*[,)])", prm.name));
    std::smatch m;
    if (!std::regex_search(decl, m, re)) return Error{fmt::format("restrict: cannot find parameter '{}'", prm.name)};
    int64_t at = s.analysis->declaration.begin + m.position(1);
    edits.push_back({at, at, "__restrict__ "});
  }
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(*source);
}

std::vector<Params> FastMath::candidates(const Subject& s) const {
  if (s.has(name())) return {};
  for (const auto& m : s.analysis->math)
    if (m.function.back() == 'f') return {Params{}};
  return {};
}

Expected<Variant> FastMath::apply(const Subject& s, const Params&) const {
  std::vector<Edit> edits;
  for (const auto& m : s.analysis->math) {
    if (m.function.back() != 'f' || !m.name.valid()) continue;  // single precision only
    if (m.function == "powf" || m.function == "tanhf") continue;  // no safe intrinsic
    edits.push_back({m.name.begin, m.name.end, "__" + m.function});
  }
  if (edits.empty()) return Error{"fast-math: no single-precision math call with an intrinsic"};
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(*source);
}

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

std::vector<Params> UnrollLoops::candidates(const Subject& s) const {
  if (s.has(name()) || unrollable(s).empty()) return {};
  return {{{{"factor", 4}}}, {{{"factor", 8}}}};
}

Expected<Variant> UnrollLoops::apply(const Subject& s, const Params& p) const {
  std::vector<Edit> edits;
  for (const Loop* l : unrollable(s)) {
    std::string pragma = l->trip_count && *l->trip_count <= 64 ? "#pragma unroll" : fmt::format("#pragma unroll {}", p.get("factor"));
    edits.push_back({l->header.begin, l->header.begin, pragma + "\n" + indentation_at(s.source, l->header.begin)});
  }
  if (edits.empty()) return Error{"unroll: no loop to unroll"};
  auto source = apply_edits(s.source, edits);
  if (!source) return source.error();
  return s.with_source(*source);
}

}  // namespace stark::builtin
