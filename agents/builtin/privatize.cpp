#include "agents/builtin/privatize.h"

#include <fmt/format.h>

#include <regex>
#include <tuple>

#include "agents/builtin/guarded_body.h"
#include "agents/builtin/rewrite.h"

namespace stark::builtin {

namespace {

/// The table: `&bins[e]` or `bins + e` into a pointer parameter, and the
/// scalar parameter that bounds e in a condition of the kernel ("e < num_bins").
struct Table {
  const AtomicCall* atomic = nullptr;
  std::string base, index, size;
};

std::optional<Table> find_table(const KernelAnalysis& a, const std::string& source) {
  if (a.atomics.size() != 1) return std::nullopt;
  const AtomicCall& at = a.atomics[0];
  if (at.function != "atomicAdd" || at.uniform_address || at.base.empty() || at.loop >= 0) return std::nullopt;
  if (at.statement.text != at.call.text) return std::nullopt;
  std::smatch m;
  std::string addr = at.address.text;
  static const std::regex subscript(R"(^\s*&\s*(\w+)\s*\[(.+)\]\s*$)"), plus(R"(^\s*(\w+)\s*\+\s*(.+)$)");
  Table t;
  if (std::regex_match(addr, m, subscript) || std::regex_match(addr, m, plus)) {
    t.base = m[1].str();
    t.index = m[2].str();
  } else {
    return std::nullopt;
  }
  if (t.base != at.base) return std::nullopt;
  // The table's size: a scalar parameter the index is compared against.
  for (const auto& p : a.params) {
    if (p.kind != ParamKind::Scalar) continue;
    std::regex bound(fmt::format(R"(\b{}\s*<\s*{}\b)", std::regex_replace(t.index, std::regex(R"([.*+?^${}()|\[\]\\])"), R"(\$&)"), p.name));
    if (std::regex_search(source, bound)) t.size = p.name;
  }
  if (t.size.empty()) return std::nullopt;
  t.atomic = &at;
  return t;
}

}  // namespace

std::vector<Params> Privatize::candidates(const Subject& s) const {
  const KernelAnalysis& a = *s.analysis;
  if (s.has(name()) || a.uses_shared_memory || !a.loops.empty() || !find_table(a, s.source) || !guarded_body(a, s.source))
    return {};
  std::vector<Params> out;
  // ilp=4: four elements' loads in flight per thread before their shared-memory atomics.
  for (auto [block, per_sm, ilp] : {std::tuple{512, 4, 4}, {512, 4, 1}, {256, 8, 4}, {1024, 2, 1}, {256, 16, 1}})
    out.push_back({{{"block", block}, {"blocks_per_sm", per_sm}, {"ilp", ilp}}});
  return out;
}

Expected<Variant> Privatize::apply(const Subject& s, const Params& p) const {
  const KernelAnalysis& a = *s.analysis;
  auto table = find_table(a, s.source);
  std::string why;
  auto body = guarded_body(a, s.source, &why);
  if (!table || !body) return Error{"privatize does not apply: " + (why.empty() ? std::string("no bounded atomic scatter") : why)};
  const AtomicCall& at = *table->atomic;
  std::string type = element_type(a, table->base);
  std::string local = helper_name(a.name, "table");
  std::string raw = helper_name(a.name, "shared");
  std::string indent = indentation_at(s.source, body->replace_begin);
  std::string element = s.source.substr(static_cast<size_t>(body->begin), static_cast<size_t>(at.call.begin - body->begin)) +
                        fmt::format("atomicAdd(&{}[{}], {})", local, table->index, at.value.text) +
                        s.source.substr(static_cast<size_t>(at.call.end), static_cast<size_t>(body->end - at.call.end));
  std::string code = fmt::format(
      "extern __shared__ unsigned char {raw}[];\n"
      "{ind}{t}* {tab} = reinterpret_cast<{t}*>({raw});\n"
      "{ind}for (int b = threadIdx.x; b < {size}; b += blockDim.x) {tab}[b] = static_cast<{t}>(0);\n"
      "{ind}__syncthreads();\n"
      "{ind}{loop}"
      "{ind}__syncthreads();\n"
      "{ind}for (int b = threadIdx.x; b < {size}; b += blockDim.x) {{\n"
      "{ind}  {t} count = {tab}[b];\n"
      "{ind}  if (count != static_cast<{t}>(0)) atomicAdd(&{base}[b], count);\n"
      "{ind}}}",
      fmt::arg("raw", raw), fmt::arg("ind", indent), fmt::arg("t", type), fmt::arg("tab", local),
      fmt::arg("size", table->size), fmt::arg("loop", grid_stride_loop(*body, a, element, indent, p.get_or("ilp", 1))),
      fmt::arg("base", table->base));
  // An early `return` in the per-element code would skip the flush that
  // needs every thread of the block.
  if (element.find("return") != std::string::npos) return Error{"privatize: the per-element code returns early"};
  auto source = apply_edits(s.source, {{body->replace_begin, body->replace_end, code}});
  if (!source) return source.error();
  Variant v = s.on_capped_grid(std::move(*source), p);
  v.launch.shmem = fmt::format("{} * {}", table->size, scalar_size(type));
  return v;
}

}  // namespace stark::builtin
